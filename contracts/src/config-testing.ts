/**
 * For configuration tests: the message `load` refuses `env` with. Throws when it accepts the
 * environment, so a test expecting a refusal fails with a clear message.
 */
export function refusalOf<Env>(load: (env: Env) => unknown, env: Env): string {
  try {
    load(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}
