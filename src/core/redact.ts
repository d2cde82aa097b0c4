/**
 * Secrets never leave their header (STYLE.md #6). A Redactor knows the secrets in play (API key, tokens, PKCE
 * verifier, authorization code) and removes them from any text before it becomes an error, a log line or output.
 */
export const REDACTED = '[redacted]';

/** Query and form parameters whose values are secrets wherever they appear. */
const SECRET_PARAMS =
  /([?&](?:access_token|refresh_token|token|code|code_verifier|client_secret|apikey|api_key)=)[^&\s"']*/gi;

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Registers a secret; short strings are ignored so that redaction never eats ordinary words. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 8) this.#secrets.add(secret);
  }

  remove(secret: string | undefined): void {
    if (secret) this.#secrets.delete(secret);
  }

  redact(text: string): string {
    let out = text.replace(SECRET_PARAMS, `$1${REDACTED}`);
    for (const s of this.#secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }
}
