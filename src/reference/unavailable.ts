/**
 * What a port throws when it can no longer do its job and every request needing it must be refused: a
 * store that stopped writing after a failed write (src/state, fail-stop). The reference answers 503 with
 * `description` as the error_description, and logs nothing more: the port logged the cause once, when it
 * stopped, rather than a stack trace a request at a time.
 */
export class PortUnavailable extends Error {
  override readonly name = 'PortUnavailable';

  constructor(readonly description: string) {
    super(description);
  }
}
