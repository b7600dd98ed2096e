/** What a command gets from the process, so that commands can be tested without spawning. */
export interface CliIO {
  /** Text, or bytes of UTF-8 text (whole characters). */
  stdout: (text: string | Uint8Array) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** A command: parses its own argv (without the command name) and returns the exit code. */
export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;

/** Exit codes: 0 ok, 1 findings/failure at run time, 2 unreadable input or bad usage. */
export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;
