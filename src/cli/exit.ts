/** grep's contract: 0 something found, 1 nothing found, 2 an error; 130 stopped by Ctrl-C. */
export const Exit = {
  Ok: 0,
  NoMatch: 1,
  Error: 2,
  Interrupted: 130,
} as const;
export type ExitCode = (typeof Exit)[keyof typeof Exit];
