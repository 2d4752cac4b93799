/** grep's contract: 0 something found, 1 nothing found, 2 an error. */
export const Exit = {
  Ok: 0,
  NoMatch: 1,
  Error: 2,
} as const;
export type ExitCode = (typeof Exit)[keyof typeof Exit];
