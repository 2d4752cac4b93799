/** The server's API, from the page: JSON in and out, an error as the one line the server gave. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  throw new ApiError(body.error ?? `${response.status} ${response.statusText}`, response.status);
}

export function apiPath(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== "") params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function getJson<T>(
  path: string,
  query: Record<string, string | undefined> = {},
  signal?: AbortSignal,
): Promise<T> {
  return answer<T>(await fetch(apiPath(path, query), { signal, credentials: "same-origin" }));
}

export async function postJson<T>(
  path: string,
  body: unknown,
  query: Record<string, string | undefined> = {},
): Promise<T> {
  return answer<T>(
    await fetch(apiPath(path, query), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}
