"""Verifies the DSSE envelope of an access-conformance attestation with in-toto's Python crypto library.

A third party's check, sharing no code with the harness: securesystemslib (in-toto's key and signature
library, Debian's python3-securesystemslib) verifies the envelope's signature over DSSE's
pre-authentication encoding, written here from the DSSE spec; the statement is then read as in-toto's
Statement v1. Usage: python3 verify_dsse.py BUNDLE PUBLIC_KEY.pem; prints the result and exits 0, or
exits 1 naming what failed.
"""
import base64
import json
import sys

from securesystemslib import exceptions, keys
from securesystemslib.signer import Signature, SSlibKey


def pae(payload_type: bytes, payload: bytes) -> bytes:
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type, len(payload), payload)


def public_key(pem: str, keyid: str) -> SSlibKey:
    if "BEGIN PUBLIC KEY" not in pem:
        raise SystemExit("not a PEM public key")
    der = base64.b64decode("".join(line for line in pem.splitlines() if not line.startswith("-----")))
    # An Ed25519 SubjectPublicKeyInfo is 44 bytes: a fixed 12-byte header, then the raw 32-byte key.
    if len(der) == 44 and der[:12] == bytes.fromhex("302a300506032b6570032100"):
        return SSlibKey(keyid, "ed25519", "ed25519", {"public": der[12:].hex()})
    key = keys.import_ecdsakey_from_public_pem(pem, "ecdsa-sha2-nistp256")
    return SSlibKey(keyid, key["keytype"], key["scheme"], {"public": key["keyval"]["public"]})


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        bundle = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        pem = f.read()
    envelope = bundle["dsseEnvelope"]
    payload = base64.b64decode(envelope["payload"])
    if len(envelope["signatures"]) != 1:
        print("FAIL: expected one signature")
        return 1
    signature = envelope["signatures"][0]
    key = public_key(pem, signature.get("keyid") or "00")
    try:
        key.verify_signature(Signature(key.keyid, base64.b64decode(signature["sig"]).hex()), pae(envelope["payloadType"].encode(), payload))
    except exceptions.UnverifiedSignatureError:
        print("FAIL: signature does not verify")
        return 1
    statement = json.loads(payload)
    if statement.get("_type") != "https://in-toto.io/Statement/v1":
        print("FAIL: not an in-toto Statement v1")
        return 1
    predicate = statement["predicate"]
    print(
        "OK %s %s %s passed=%d warned=%d failed=%d"
        % (key.scheme, statement["predicateType"], predicate["result"], len(predicate["passedTests"]), len(predicate["warnedTests"]), len(predicate["failedTests"]))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
