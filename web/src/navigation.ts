/**
 * Moving between the app's pages without reloading: the address is the state, so every page can be
 * bookmarked.
 */
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const listener of listeners) listener();
}

/** The current address, updated on every move (links, the back button). */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const changed = () => setTick((n) => n + 1);
    listeners.add(changed);
    addEventListener("popstate", changed);
    return () => {
      listeners.delete(changed);
      removeEventListener("popstate", changed);
    };
  }, []);
  return new URL(location.href);
}

/**
 * A click on a link of the app moves within it; a click with a modifier opens it as the browser
 * would.
 */
export function followLink(event: MouseEvent, to: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  event.preventDefault();
  navigate(to);
  scrollTo(0, 0);
}
