/** A config file weir cannot use; the message names the file and the key. Exit status 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
