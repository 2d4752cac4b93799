/**
 * The server's live feed: a callback after each sync that changed the index, while the page is
 * open.
 */
import { useEffect, useRef } from "preact/hooks";

export function useLive(onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const feed = new EventSource("/api/events");
    feed.addEventListener("changed", () => latest.current());
    return () => feed.close();
  }, []);
}
