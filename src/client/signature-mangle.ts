/**
 * A valid HMAC digest changed the way a lenient comparison would still accept it (ruling 21's attacks):
 * declared as data, not as a function, so the client applies it after signing and a failure's
 * reproduction (replay-recipe.ts) can sign again and change the new digest the same way.
 */
export type SignatureMangle =
  | { op: 'flip-first-letter' }
  | { op: 'upper' }
  | { op: 'lower' }
  | { op: 'append'; text: string }
  | { op: 'twice' }
  | { op: 'keep'; chars: number }
  | { op: 'drop-last'; chars: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'prefix'; text: string }
  /** After another digest-shaped value of the same length (the valid one reversed), space-separated. */
  | { op: 'after-other' };

/** Flips the case of the first letter (43 base64url characters hold a letter: ~1 - 1e-30). */
function flipFirstLetter(digest: string): string {
  const index = digest.search(/[A-Za-z]/);
  if (index < 0) return digest;
  const ch = digest[index]!;
  const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
  return `${digest.slice(0, index)}${flipped}${digest.slice(index + 1)}`;
}

/** A digest-shaped value of the same length that is not the valid one. */
function otherDigest(valid: string): string {
  const reversed = [...valid].reverse().join('');
  return reversed === valid ? `${valid.slice(1)}A` : reversed;
}

export function mangleSignature(valid: string, mangle: SignatureMangle): string {
  switch (mangle.op) {
    case 'flip-first-letter':
      return flipFirstLetter(valid);
    case 'upper':
      return valid.toUpperCase();
    case 'lower':
      return valid.toLowerCase();
    case 'append':
      return `${valid}${mangle.text}`;
    case 'twice':
      return `${valid}${valid}`;
    case 'keep':
      return valid.slice(0, mangle.chars);
    case 'drop-last':
      return valid.slice(0, -mangle.chars);
    case 'insert':
      return `${valid.slice(0, mangle.at)}${mangle.text}${valid.slice(mangle.at)}`;
    case 'prefix':
      return `${mangle.text}${valid}`;
    case 'after-other':
      return `${otherDigest(valid)} ${valid}`;
  }
}
