// The paraphrase evaluation's sessions, written by hand: short coherent conversations on distinct
// developer topics. Topics that share a `pair` are close on purpose (same symptom, another cause)
// so that a search has to tell them apart. Each topic has three queries, as a user types them weeks
// later:
//  - paraphrase: the gist in other words; shares no content word with the session (check.mjs);
//  - vague: a short, loose description;
//  - keyword: 2–4 distinctive words the session holds.
// `turns` alternate user and assistant, starting with the user.

export const TOPICS = [
  {
    id: "flaky-fake-timers",
    pair: "flaky-test",
    turns: [
      "The debounce test in search-box.test.ts fails about one run in five on CI. Locally it always passes.",
      "The test waits 300 ms with a real setTimeout and then asserts the request was sent. On a loaded runner the debounce callback sometimes has not fired yet. I switched it to vi.useFakeTimers() and vi.advanceTimersByTime(300), so the test no longer depends on actual elapsed delays.",
      "Do we need to restore anything afterwards?",
      "Yes: call vi.useRealTimers() in afterEach, otherwise later tests in the file inherit the mocked setTimeout and hang. I added it and ran the file 50 times with --repeat; all green.",
    ],
    queries: {
      paraphrase: "spec kept breaking now and then because of the clock",
      vague: "flaky test timing",
      keyword: "useFakeTimers debounce advanceTimersByTime",
    },
  },
  {
    id: "flaky-shared-db",
    pair: "flaky-test",
    turns: [
      "orders.spec.ts passes alone but fails when the whole suite runs: it finds three orders instead of one.",
      "The integration tests share one Postgres database and users.spec.ts inserts orders without deleting them. Vitest runs files in parallel, so the count depends on which file finished first. I wrapped every test in a transaction that is rolled back in afterEach.",
      "Could we give each worker its own schema instead?",
      "That works too: create schema test_${VITEST_POOL_ID} in globalSetup and set search_path per worker. I kept the rollback approach since it is faster, and the suite now passes in any order.",
    ],
    queries: {
      paraphrase: "leftover rows from elsewhere broke tally assertions, outcome varied by sequence",
      vague: "tests fail together but pass alone",
      keyword: "rollback search_path VITEST_POOL_ID",
    },
  },
  {
    id: "pg-pool-exhausted",
    pair: "postgres-stuck",
    turns: [
      "The API starts timing out after an hour in production with 'timeout exceeded when trying to connect' from node-postgres.",
      "Every client checked out with pool.connect() in the report handler is released only on success. When the query throws, client.release() is never called, so the pool of 10 drains and new requests wait forever. I moved the release into a finally block.",
      "Should we raise max as well?",
      "Not yet. With the leak fixed, pool.totalCount stays under 6 at peak. I added idleTimeoutMillis and a gauge of pool.waitingCount to the metrics so we see it if it creeps up again.",
    ],
    queries: {
      paraphrase: "database handles never handed back after an exception so calls hung",
      vague: "postgres problem under load",
      keyword: "pool.connect release finally waitingCount",
    },
  },
  {
    id: "pg-deadlock",
    pair: "postgres-stuck",
    turns: [
      "We get 'deadlock detected' errors from Postgres a few times a day in the transfer endpoint.",
      "Two transfers between the same accounts lock the rows in opposite order: A then B in one, B then A in the other. Each waits on the other's row lock until Postgres aborts one. I changed the code to SELECT ... FOR UPDATE both accounts ordered by id before updating balances.",
      "Will the aborted one be retried?",
      "Now it is: the transaction is retried up to three times on SQLSTATE 40P01 with a short jitter. Since the ordering fix the log shows no deadlocks in the load test.",
    ],
    queries: {
      paraphrase:
        "a pair of money moves grabbing identical ledger entries in reverse sequence, one getting killed",
      vague: "database errors on concurrent requests",
      keyword: "deadlock FOR UPDATE 40P01",
    },
  },
  {
    id: "css-grid-overflow",
    pair: "css-overflow",
    turns: [
      "On phones the dashboard cards stick out to the right and the page scrolls sideways.",
      "The grid uses grid-template-columns: repeat(3, 1fr). A 1fr track has a minimum of auto, so a long URL inside a card stops the column from shrinking below its content. Switching to repeat(auto-fit, minmax(0, 1fr)) and adding overflow-wrap: anywhere on the card body fixes it.",
      "And below 480px?",
      "There I added a media query that drops to a single column. Checked in the device toolbar at 360px: no horizontal scroll.",
    ],
    queries: {
      paraphrase:
        "tiles wider than the handset display, pannable in both directions on small gadgets",
      vague: "layout broken on mobile",
      keyword: "minmax auto-fit overflow-wrap",
    },
  },
  {
    id: "css-flex-ellipsis",
    pair: "css-overflow",
    turns: [
      "The file name in the sidebar row should end with an ellipsis but it pushes the buttons out of the row instead.",
      "The name is a flex item, and flex items default to min-width: auto, so text-overflow: ellipsis never kicks in. Setting min-width: 0 on the name span, together with white-space: nowrap and overflow: hidden, lets it shrink.",
      "The icon next to it got squished now.",
      "Gave the icon flex-shrink: 0 so only the label gives up room. Long names now end in … and the action buttons stay visible.",
    ],
    queries: {
      paraphrase: "caption would not truncate with dots and shoved the controls off the line",
      vague: "long text breaks the sidebar",
      keyword: "ellipsis min-width flex-shrink",
    },
  },
  {
    id: "git-rebase-lost",
    pair: "git-trouble",
    turns: [
      "I did an interactive rebase to squash my commits and now two days of work seem gone from the branch.",
      "During the rebase the conflicting commits were dropped with 'git rebase --skip'. They are still in the reflog: git reflog shows the branch tip before the rebase as HEAD@{7}. I created a rescue branch from it with git branch rescue HEAD@{7}.",
      "Can I get back to where I was before the rebase entirely?",
      "Yes, git reset --hard HEAD@{7} on your branch restores it; I did that after checking git log rescue. Next time, squash with --autosquash and keep a backup tag before rewriting history.",
    ],
    queries: {
      paraphrase: "merged my changes into fewer and feared the effort had vanished, dug them up",
      vague: "lost commits in git",
      keyword: "reflog rebase --skip HEAD@{7}",
    },
  },
  {
    id: "git-lockfile-conflict",
    pair: "git-trouble",
    turns: [
      "Merging main into my feature branch gives a huge conflict in package-lock.json.",
      "Resolving that file by hand is not worth it. I took main's version with git checkout --theirs package-lock.json, then ran npm install so it picks up the dependencies your branch added, and committed the regenerated lockfile.",
      "Can we stop this from happening every time?",
      "A custom merge driver for package-lock.json in .gitattributes is possible but risky, so instead I documented the checkout-and-reinstall step in CONTRIBUTING and we keep dependency bumps in small separate PRs.",
    ],
    queries: {
      paraphrase:
        "clash in the pinned snapshot of the installer when bringing upstream into my topic work",
      vague: "git merge problem",
      keyword: "package-lock.json --theirs gitattributes",
    },
  },
  {
    id: "leak-event-listener",
    pair: "memory-leak",
    turns: [
      "The tab's memory grows by about 20 MB every time I open and close the chart panel.",
      "ChartPanel adds a resize listener on window in its mount hook but never removes it, and the handler closes over the whole chart instance. Each closed panel stays reachable from window. A heap snapshot shows hundreds of detached canvas nodes.",
      "So removeEventListener in the cleanup?",
      "Exactly, with the same function reference; I stored the bound handler and removed it on unmount, and also used an AbortController signal for the other listeners. After ten open/close cycles the heap is flat.",
    ],
    queries: {
      paraphrase:
        "browser kept eating RAM whenever the graph view was dismissed since a global subscription lingered",
      vague: "memory leak in frontend",
      keyword: "removeEventListener resize detached heap snapshot",
    },
  },
  {
    id: "leak-unbounded-cache",
    pair: "memory-leak",
    turns: [
      "Our Node service's RSS climbs steadily until it is OOM-killed after about two days.",
      "The user lookup memoizes results in a module-level Map keyed by request id, which is unique per request, so nothing is ever reused and nothing is ever evicted. The heap snapshot's largest retainer is that Map with 1.4 million entries.",
      "Can we keep some caching?",
      "I replaced it with an LRU keyed by user id, max 5000 entries and a 10 minute TTL. The hit rate is 70% and RSS levels off at 180 MB in the soak test.",
    ],
    queries: {
      paraphrase: "server process grew until terminated since a memo store never forgot anything",
      vague: "node service memory",
      keyword: "LRU OOM-killed Map TTL",
    },
  },
  {
    id: "react-effect-loop",
    pair: "react-hooks",
    turns: [
      "The profile page sends hundreds of fetches per second and the network tab never stops.",
      "The useEffect that loads the profile depends on an options object created inline on every render. A new object each render means the dependency changed, the effect runs, setState re-renders, and so on. I moved the options into useMemo keyed by userId.",
      "ESLint now complains about exhaustive-deps somewhere else.",
      "That one was a callback; wrapped it in useCallback. The page now fetches once on mount and again only when userId changes.",
    ],
    queries: {
      paraphrase:
        "component refetching endlessly since a freshly built argument on each paint retriggered it",
      vague: "react page keeps loading",
      keyword: "useEffect useMemo exhaustive-deps",
    },
  },
  {
    id: "react-stale-closure",
    pair: "react-hooks",
    turns: [
      "The countdown component shows 59 and then never goes lower.",
      "The setInterval callback is created once in useEffect with an empty dependency list, so it captures seconds from the first render and always sets 60 - 1. Using the functional updater setSeconds(s => s - 1) reads the current value instead.",
      "What about the interval when the component unmounts?",
      "The effect now returns () => clearInterval(id). I also put the tick handler in a ref for the pause button, so it always sees fresh state.",
    ],
    queries: {
      paraphrase:
        "ticker stuck at one number since the repeating function remembered an old snapshot",
      vague: "react timer bug",
      keyword: "setInterval clearInterval setSeconds",
    },
  },
  {
    id: "docker-image-size",
    pair: "docker-build",
    turns: [
      "Our Docker image is 1.9 GB and deployments take ages to pull it.",
      "It is built FROM node:20 and keeps the whole toolchain, devDependencies and the TypeScript sources. I split it into a multi-stage build: a builder stage compiles, then the final stage is node:20-slim with only dist/ and production dependencies from npm ci --omit=dev.",
      "Any further savings?",
      "A .dockerignore for .git, coverage and test fixtures. The image is 210 MB now, and pulls take seconds.",
    ],
    queries: {
      paraphrase: "container artifact enormous, shipping slow, trimmed it using separate phases",
      vague: "docker image problem",
      keyword: "multi-stage node:20-slim dockerignore",
    },
  },
  {
    id: "docker-layer-cache",
    pair: "docker-build",
    turns: [
      "Every Docker build reinstalls all npm packages even when only one source file changed.",
      "The Dockerfile does COPY . . before RUN npm ci, so any change in the context invalidates that layer and everything after it. I copy package.json and package-lock.json first, run npm ci, and only then copy the rest.",
      "CI still rebuilds from scratch though.",
      "The runners start clean, so I enabled BuildKit's registry cache with --cache-from and --cache-to type=registry. Rebuilds after a code change now take 40 seconds instead of six minutes.",
    ],
    queries: {
      paraphrase:
        "container images redownloading every dependency whenever anything at all was edited",
      vague: "slow docker builds",
      keyword: "BuildKit --cache-from COPY npm ci",
    },
  },
  {
    id: "cors-preflight",
    pair: "cross-origin",
    turns: [
      "The SPA on app.example.com gets a CORS error calling the API, but only for PUT requests.",
      "PUT with a JSON body triggers a preflight OPTIONS request. The API answers it with 404 because the router only registers PUT, and it never sends Access-Control-Allow-Methods. I added an OPTIONS handler through the cors middleware with methods PUT, PATCH and DELETE and the allowed headers Content-Type and Authorization.",
      "GET always worked, why?",
      "A simple GET without custom headers skips the preflight. Now the OPTIONS response is 204 with the right headers and the PUT goes through.",
    ],
    queries: {
      paraphrase:
        "browser refused edits to the backend from our frontend domain, the verb check beforehand was missing",
      vague: "cors issue",
      keyword: "preflight OPTIONS Access-Control-Allow-Methods",
    },
  },
  {
    id: "cookie-samesite",
    pair: "cross-origin",
    turns: [
      "After login the dashboard on another subdomain still acts logged out: the session cookie is not sent.",
      "The cookie is set with SameSite=Strict and no Domain attribute, so it belongs to auth.example.com only and is withheld on cross-site navigations. I set Domain=.example.com, SameSite=Lax and Secure.",
      "The fetch calls from the dashboard still miss it.",
      "fetch needs credentials: 'include', and the API must reply with Access-Control-Allow-Credentials: true and an explicit origin, not *. With both the session is recognized.",
    ],
    queries: {
      paraphrase:
        "signed in yet treated as anonymous on a sibling host, browser withholding the token",
      vague: "login not working across sites",
      keyword: "SameSite Domain credentials include",
    },
  },
  {
    id: "esm-require-undefined",
    pair: "module-resolution",
    turns: [
      'After adding "type": "module" to package.json the server crashes with ReferenceError: require is not defined.',
      "With type module every .js file is ESM, and config.js still uses require and __dirname. I converted it to import statements, replaced __dirname with fileURLToPath(new URL('.', import.meta.url)), and renamed the one script that must stay CommonJS to .cjs.",
      "The JSON import fails now.",
      "Importing JSON needs an import attribute: import pkg from './package.json' with { type: 'json' }. Or read it with createRequire. I used the attribute; the server starts.",
    ],
    queries: {
      paraphrase:
        "switching the project to the newer syntax made the old loader function vanish at startup",
      vague: "node module error",
      keyword: "require is not defined import.meta.url .cjs",
    },
  },
  {
    id: "ts-path-alias-runtime",
    pair: "module-resolution",
    turns: [
      "tsc compiles fine but node dist/index.js fails with Cannot find module '@/utils/format'.",
      "The paths mapping in tsconfig.json only tells the type checker where @/ points; tsc does not rewrite the import specifiers in the emitted JavaScript. Node then looks for a package named @/utils.",
      "Options?",
      'Either rewrite them at build time with tsc-alias, or use Node\'s subpath imports: "imports": { "#utils/*": "./dist/utils/*.js" } in package.json and import from #utils/format. I went with subpath imports since they need no extra tool.',
    ],
    queries: {
      paraphrase:
        "shortcut prefixes resolve in the editor and compiler yet the built output cannot locate them",
      vague: "typescript import broken after build",
      keyword: "tsc-alias paths Cannot find module",
    },
  },
  {
    id: "jwt-clock-skew",
    pair: "auth-tokens",
    turns: [
      "Some users get 401 right after logging in, with 'jwt not active' in the logs.",
      "The auth server sets nbf to its current time, and the API pods' clocks are two seconds behind it, so a fresh token is not valid yet there. NTP was not running in the node image. I enabled chrony on the nodes and added clockTolerance: 5 to jwt.verify.",
      "Is a tolerance safe?",
      "Five seconds is common and only widens the window slightly for exp too. The 401s stopped after the rollout.",
    ],
    queries: {
      paraphrase: "new sign-ins rejected briefly since machines disagreed on the hour",
      vague: "auth errors after login",
      keyword: "nbf clockTolerance chrony",
    },
  },
  {
    id: "refresh-token-race",
    pair: "auth-tokens",
    turns: [
      "Users with two tabs open get logged out randomly.",
      "Refresh tokens rotate on use and reuse revokes the whole family. Both tabs notice the access token expired and call /refresh with the same refresh token at once; the second call looks like reuse and kills the session. I made the client share one in-flight refresh through a BroadcastChannel and a lock via navigator.locks.",
      "Anything on the server?",
      "A 10-second grace period in which the previous refresh token returns the same new pair instead of revoking. No more random logouts in the two-tab test.",
    ],
    queries: {
      paraphrase: "people kicked out when several windows renewed their credentials simultaneously",
      vague: "random logouts",
      keyword: "BroadcastChannel navigator.locks rotate",
    },
  },
  {
    id: "orm-n-plus-one",
    pair: "slow-queries",
    turns: [
      "The orders list endpoint takes 4 seconds for 200 orders.",
      "The query log shows one SELECT for the orders and then one SELECT per order for its customer: 201 queries. The serializer touches order.customer lazily. I added include: { customer: true } to the Prisma findMany so it loads them in one extra query.",
      "Are other endpoints doing the same?",
      "I turned on Prisma query logging in the test run and found the invoices endpoint had the same pattern; fixed it too. The orders list now takes 120 ms.",
    ],
    queries: {
      paraphrase: "listing page crawled since each row fetched its buyer separately",
      vague: "slow api endpoint",
      keyword: "Prisma findMany include customer",
    },
  },
  {
    id: "missing-db-index",
    pair: "slow-queries",
    turns: [
      "Searching invoices by email takes several seconds since the table passed 5 million rows.",
      "EXPLAIN ANALYZE shows a sequential scan on invoices filtering lower(email). There is an index on email, but not on lower(email), so the planner cannot use it. I created an expression index: CREATE INDEX CONCURRENTLY invoices_lower_email_idx ON invoices (lower(email)).",
      "Will CONCURRENTLY lock writes?",
      "No, it builds without blocking inserts, it just takes longer. The query now uses an index scan and returns in 3 ms.",
    ],
    queries: {
      paraphrase:
        "lookup by address crawling through every billing record since lowercase matching skipped the lookup structure",
      vague: "slow database query",
      keyword: "EXPLAIN ANALYZE CONCURRENTLY lower(email)",
    },
  },
  {
    id: "ci-cache-miss",
    pair: "ci-slow",
    turns: [
      "Our GitHub Actions workflow spends four minutes installing dependencies on every run even though we use actions/cache.",
      "The cache key is built from hashFiles('package-lock.json') but the workflow runs in a subfolder, so the path does not match and the hash is empty. Every run misses and saves a new cache. I fixed the path to web/package-lock.json and switched to actions/setup-node with cache: npm.",
      "Does it restore now?",
      "The log shows 'Cache restored from key: Linux-npm-…' and the install step takes 25 seconds.",
    ],
    queries: {
      paraphrase:
        "pipeline reinstalling everything each push since the stored copy never got reused",
      vague: "ci is slow",
      keyword: "actions/cache hashFiles setup-node",
    },
  },
  {
    id: "ci-hanging-job",
    pair: "ci-slow",
    turns: [
      "The test job on CI hits the 60 minute timeout, although all tests report passed after two minutes.",
      "Jest finishes but the process does not exit: something keeps the event loop alive. Running with --detectOpenHandles points at the Redis client created in setup.ts and never closed. I added afterAll(() => redis.quit()).",
      "Should we add --forceExit?",
      "I would not: it hides the next leak. Instead I set timeout-minutes: 15 on the job so a hang fails fast. The job now ends right after the tests.",
    ],
    queries: {
      paraphrase:
        "pipeline step never finished although every check succeeded, a lingering connection held it",
      vague: "ci job stuck",
      keyword: "detectOpenHandles redis.quit timeout-minutes",
    },
  },
  {
    id: "unhandled-rejection",
    pair: "node-crash",
    turns: [
      "The worker process exits with code 1 and no useful stack trace every few hours.",
      "Since Node 15 an unhandled promise rejection terminates the process. sendReceipt() is called without await inside a forEach, so when the mail provider returns 503 the rejection has no handler. I replaced the forEach with for...of and await, wrapped in try/catch that logs and schedules a retry.",
      "How do we catch the next one?",
      "I added a process.on('unhandledRejection') handler that logs the reason with the job id before exiting, so the cause is in the logs.",
    ],
    queries: {
      paraphrase: "background runner dying silently when an async notification failed unawaited",
      vague: "node worker crashes",
      keyword: "unhandledRejection forEach sendReceipt",
    },
  },
  {
    id: "event-loop-blocked",
    pair: "node-crash",
    turns: [
      "Health checks time out and Kubernetes restarts the API while a large export is running.",
      "The export handler calls JSON.parse on a 300 MB file and then JSON.stringify the result synchronously, which blocks the event loop for 20 seconds; the liveness probe gets no answer. I measured it with monitorEventLoopDelay from perf_hooks.",
      "How did you fix it?",
      "The export now streams rows with a cursor and writes NDJSON through a pipeline, so no single call holds the loop longer than a few ms. Event loop delay p99 went from 20 s to 8 ms.",
    ],
    queries: {
      paraphrase: "server froze during a huge download so the orchestrator killed it",
      vague: "api restarts during export",
      keyword: "monitorEventLoopDelay JSON.parse NDJSON",
    },
  },
  {
    id: "retry-429-backoff",
    pair: "api-delivery",
    turns: [
      "The sync job against the vendor API fails with HTTP 429 Too Many Requests during the nightly import.",
      "We fire 50 requests in parallel. The vendor allows 10 per second and sends a Retry-After header we ignore. I limited concurrency with p-limit to 5 and added retries with exponential backoff plus jitter that honour Retry-After.",
      "Will the import still finish in time?",
      "It takes 11 minutes instead of 4, well inside the window, and the log shows no 429s after the first retry.",
    ],
    queries: {
      paraphrase:
        "overnight pull from the supplier got throttled, we slowed down and waited longer between attempts",
      vague: "external api errors",
      keyword: "429 Retry-After p-limit jitter",
    },
  },
  {
    id: "webhook-idempotency",
    pair: "api-delivery",
    turns: [
      "Some customers were charged twice: our Stripe webhook handler created two payments for one event.",
      "Stripe delivers webhooks at least once and retried because our handler took longer than its timeout. The handler is not idempotent. I store event.id in a processed_events table with a unique constraint and skip events already there, inside the same transaction as the payment insert.",
      "And the slowness?",
      "The handler now acknowledges with 200 immediately and queues the work, so Stripe stops retrying.",
    ],
    queries: {
      paraphrase:
        "buyers billed double since the provider resent a notification and we handled it again",
      vague: "duplicate payments",
      keyword: "webhook idempotent processed_events event.id",
    },
  },
  {
    id: "k8s-liveness-crashloop",
    turns: [
      "The new pod is in CrashLoopBackOff but the container logs show the app starting normally.",
      "The liveness probe starts checking /healthz after 5 seconds, but the app needs about 40 seconds to warm its cache, so the kubelet kills it before it is up. I added a startupProbe with failureThreshold 30 and periodSeconds 2, which holds off the liveness probe until startup succeeds.",
      "Should readiness change too?",
      "Readiness now checks the cache is loaded, so traffic only arrives once the pod can serve it. The rollout completed.",
    ],
    queries: {
      paraphrase: "cluster restarting the service repeatedly while it was still warming up",
      vague: "kubernetes pod restarting",
      keyword: "CrashLoopBackOff startupProbe liveness",
    },
  },
  {
    id: "timezone-off-by-one-day",
    turns: [
      "Birthdays show one day early for users in America.",
      "The date is stored as '1990-05-14' and parsed with new Date('1990-05-14'), which JavaScript treats as UTC midnight; formatting it in a negative offset gives May 13. Date-only values should not be turned into instants. I keep them as plain strings and format with Intl.DateTimeFormat using timeZone: 'UTC'.",
      "Are there other places?",
      "The due-date picker had the same bug; fixed with the same helper, and added a test that runs with TZ=America/Los_Angeles.",
    ],
    queries: {
      paraphrase: "anniversaries displayed a calendar square too soon for folks west of Greenwich",
      vague: "wrong date shown",
      keyword: "UTC midnight Intl.DateTimeFormat TZ",
    },
  },
  {
    id: "float-money-rounding",
    turns: [
      "The invoice total is 0.30000000000000004 and tax sometimes differs by a cent from the accountant's sheet.",
      "Amounts are kept as floating point numbers and summed, so binary fractions add up errors. I changed the model to integer cents everywhere and round tax once per line with banker's rounding, as the accountant does.",
      "What about existing rows?",
      "A migration multiplies the decimal columns by 100 into bigint cents columns. The totals now match the sheet for all of last year's invoices.",
    ],
    queries: {
      paraphrase: "billing sums slightly wrong by a penny, inexact arithmetic",
      vague: "money calculation bug",
      keyword: "cents floating point banker's rounding",
    },
  },
  {
    id: "regex-backtracking",
    turns: [
      "One request pegged the CPU at 100% and the server stopped responding.",
      "The email validation regex /^([a-zA-Z0-9]+\\.?)+@/ has nested quantifiers. On a long input without an @ it backtracks exponentially, so a 40-character string takes minutes. This is a ReDoS.",
      "How do we fix the pattern?",
      "I replaced it with a linear pattern without nested repetition and capped the input length at 254. I also added safe-regex to the lint step to flag such patterns.",
    ],
    queries: {
      paraphrase: "a crafted text made the validator spin forever and froze the backend",
      vague: "server hangs on input",
      keyword: "ReDoS backtracks nested quantifiers",
    },
  },
  {
    id: "unicode-normalization-filenames",
    turns: [
      "Uploading 'café.txt' from a Mac creates a second file next to the existing 'café.txt' instead of replacing it.",
      "macOS gives the name in NFD, with the accent as a combining character, while the stored name is NFC. The strings look identical but compare unequal. I normalize every incoming name with name.normalize('NFC') before the lookup.",
      "And the names already stored?",
      "A one-off script normalized them and merged the three duplicates it found.",
    ],
    queries: {
      paraphrase:
        "accented titles looking alike yet treated as different, producing twin documents",
      vague: "duplicate uploads",
      keyword: "NFD NFC normalize",
    },
  },
  {
    id: "s3-presigned-signature",
    turns: [
      "Uploads with the presigned URL fail with SignatureDoesNotMatch.",
      "The URL is signed with ContentType 'image/png', but the browser's fetch sends no Content-Type header, so the signature does not match. Either sign without ContentType or send exactly the signed header; I send the header from the file's type.",
      "It still fails for some users.",
      "Their bucket is in eu-central-1, which only accepts signature version 4 with the regional endpoint; the client was created without region. Setting region fixed those.",
    ],
    queries: {
      paraphrase: "direct frontend transfers to object storage rejected over a mismatched hash",
      vague: "upload fails",
      keyword: "SignatureDoesNotMatch presigned ContentType",
    },
  },
  {
    id: "nginx-websocket-upgrade",
    turns: [
      "The chat connects locally but behind nginx the socket closes right away with code 1006.",
      'nginx proxies with HTTP/1.0 and drops the Upgrade and Connection headers by default. I set proxy_http_version 1.1, proxy_set_header Upgrade $http_upgrade and Connection "upgrade" in the location block.',
      "It disconnects after a minute now.",
      "proxy_read_timeout defaults to 60 s; I raised it to 1 hour and the client sends a ping every 30 seconds.",
    ],
    queries: {
      paraphrase: "live messaging dropped instantly once behind the reverse gateway",
      vague: "chat disconnects in production",
      keyword: "proxy_http_version Upgrade 1006",
    },
  },
  {
    id: "redis-no-ttl-eviction",
    turns: [
      "Redis memory hit maxmemory and now writes fail with OOM command not allowed.",
      "The rate limiter keys are created with INCR but EXPIRE is only set when the key is new, and a race skips it, so millions of keys never expire. I switched to SET key 0 EX 60 NX followed by INCR in a MULTI block.",
      "And the existing keys?",
      "A SCAN script set a TTL on keys without one. I also set maxmemory-policy to volatile-lru so it degrades instead of failing.",
    ],
    queries: {
      paraphrase: "in-RAM store filled up because throttle counters lived forever",
      vague: "redis full",
      keyword: "maxmemory EXPIRE volatile-lru",
    },
  },
  {
    id: "python-venv-wrong-interpreter",
    turns: [
      "pip install says requests is installed, but running the script gives ModuleNotFoundError: No module named 'requests'.",
      "pip belongs to the system Python 3.9 while the script runs with python3 from pyenv, 3.12, which has its own site-packages. Running python -m pip ensures you install into the interpreter that runs the script. Better, create a virtualenv with python -m venv .venv and activate it.",
      "VS Code still uses the old one.",
      "Select the interpreter .venv/bin/python with 'Python: Select Interpreter'; the terminal then activates it too.",
    ],
    queries: {
      paraphrase:
        "library present yet the program could not locate it, two separate setups on the laptop",
      vague: "python import error",
      keyword: "ModuleNotFoundError venv pyenv",
    },
  },
  {
    id: "rust-borrow-loop",
    turns: [
      "Rust says cannot borrow `self.items` as mutable because it is also borrowed as immutable in my update loop.",
      "You iterate over self.items and call self.recompute(&item) inside, which takes &mut self. The iterator holds a shared borrow of self.items for the whole loop. Collect the indices first, or split the struct so recompute only borrows the fields it needs.",
      "Splitting sounds cleaner.",
      "I moved the totals into their own struct and recompute now takes &mut Totals, so the loop borrows self.items and self.totals separately and it compiles.",
    ],
    queries: {
      paraphrase: "compiler refusing a change to a collection while walking over it",
      vague: "rust compile error",
      keyword: "borrow mutable immutable recompute",
    },
  },
  {
    id: "go-goroutine-leak",
    turns: [
      "The number of goroutines in our Go service grows forever according to pprof.",
      "fetchAll starts a goroutine per backend and returns at the first error, but the other goroutines block sending on an unbuffered channel nobody reads anymore. I pass a context, select on ctx.Done() when sending, and cancel it when fetchAll returns.",
      "Could errgroup do this?",
      "Yes, I rewrote it with errgroup.WithContext, which cancels the others on first error. The goroutine count stays flat in the load test.",
    ],
    queries: {
      paraphrase:
        "concurrent tasks piling up without end since their results went unconsumed after an early exit",
      vague: "go service leaking",
      keyword: "goroutine errgroup ctx.Done pprof",
    },
  },
  {
    id: "migration-table-lock",
    turns: [
      "Our deploy migration locked the users table for eight minutes and the site went down.",
      "ALTER TABLE users ADD COLUMN plan text NOT NULL DEFAULT 'free' on Postgres 10 rewrites the whole table under an ACCESS EXCLUSIVE lock. We have 30 million rows.",
      "How should we do it instead?",
      "Add the column nullable without default, backfill in batches of 10,000, then add the NOT NULL as a NOT VALID check constraint and VALIDATE it separately. I also set lock_timeout so a migration fails instead of blocking traffic.",
    ],
    queries: {
      paraphrase: "schema change froze the accounts relation during release and caused an outage",
      vague: "migration caused downtime",
      keyword: "ACCESS EXCLUSIVE backfill lock_timeout",
    },
  },
  {
    id: "i18n-plural-forms",
    turns: [
      "The Polish translation says '5 plik' where it should say '5 plików'.",
      "The code picks between two keys, one and other, with count === 1. Polish has more plural categories: one, few and many. I switched to Intl.PluralRules('pl').select(count) and added the few and many keys to the message catalog.",
      "Will the translators know?",
      "I updated the translator guide with the categories per language; ICU MessageFormat plural syntax is now used everywhere.",
    ],
    queries: {
      paraphrase: "wrong grammatical quantity endings in a Slavic locale",
      vague: "translation bug",
      keyword: "PluralRules plural categories ICU",
    },
  },
  {
    id: "modal-focus-trap",
    turns: [
      "A screen reader user reported that tabbing in our dialog moves focus to the page behind it.",
      "The modal does not trap focus and the background is not inert. I used the native <dialog> element with showModal(), which makes the rest of the page inert and returns focus to the opener on close.",
      "Escape should close it too.",
      "showModal handles Escape through the cancel event; I listen to it to run our close logic. Tested with VoiceOver and keyboard only.",
    ],
    queries: {
      paraphrase: "navigation escaping the popup into content underneath, accessibility complaint",
      vague: "accessibility issue",
      keyword: "showModal inert dialog",
    },
  },
  {
    id: "service-worker-stale",
    turns: [
      "After a deploy some users still see the old version of the app for days.",
      "The service worker precaches index.html and serves it cache-first, and the new worker waits until all tabs close. I made index.html network-first and show a 'new version' banner that calls skipWaiting() through postMessage and reloads on controllerchange.",
      "What about the hashed assets?",
      "They can stay cache-first: their names change with every build.",
    ],
    queries: {
      paraphrase:
        "visitors stuck on an outdated release long after shipping because of offline caching",
      vague: "users see old version",
      keyword: "skipWaiting controllerchange precaches",
    },
  },
  {
    id: "bundle-moment-locales",
    turns: [
      "The main bundle jumped to 900 KB after adding a date picker.",
      "The bundle analyzer shows moment with all 130 locales, pulled in by the picker. I replaced moment with date-fns in our code and aliased the picker's import to a small adapter; locales are loaded on demand.",
      "How big is it now?",
      "340 KB minified. I added a size-limit check to CI that fails above 400 KB.",
    ],
    queries: {
      paraphrase:
        "javascript payload ballooned because a calendar widget dragged in every language pack",
      vague: "bundle too big",
      keyword: "moment locales date-fns size-limit",
    },
  },
  {
    id: "cert-renewal-expired",
    turns: [
      "The site shows NET::ERR_CERT_DATE_INVALID this morning.",
      "The Let's Encrypt certificate expired. certbot renew ran from cron but the HTTP-01 challenge failed since we added a redirect of /.well-known to the app. I excluded /.well-known/acme-challenge from the redirect and renewed.",
      "How do we notice earlier next time?",
      "A deploy hook reloads nginx after renewal, and the uptime monitor now alerts 14 days before expiry.",
    ],
    queries: {
      paraphrase:
        "secure padlock broke overnight since the automatic refresh of our ssl credential silently stopped working",
      vague: "site security warning",
      keyword: "certbot acme-challenge ERR_CERT_DATE_INVALID",
    },
  },
  {
    id: "cron-double-run",
    turns: [
      "The daily digest email is sent twice since we scaled the app to two replicas.",
      "Each replica runs node-cron in process, so both fire at 8:00. I moved the schedule into a Kubernetes CronJob with concurrencyPolicy: Forbid, so exactly one pod runs it.",
      "What if the job is retried?",
      "The job records the digest date in a table with a unique key and exits if today's digest exists.",
    ],
    queries: {
      paraphrase: "morning newsletter arriving duplicated after we added a second instance",
      vague: "emails sent twice",
      keyword: "node-cron CronJob concurrencyPolicy",
    },
  },
  {
    id: "log-pii-redaction",
    turns: [
      "Security found customer emails and card numbers in our application logs.",
      "The request logger dumps whole request bodies. I configured pino's redact option with paths such as req.body.email and req.body.card.number, censored as [REDACTED].",
      "The error logs too?",
      "Errors from the payment client include the payload; I now log only its error code. A unit test feeds a sample body through the logger and asserts no PII remains.",
    ],
    queries: {
      paraphrase: "personal shopper details leaking into diagnostics output, masked them",
      vague: "sensitive data in logs",
      keyword: "pino redact PII",
    },
  },
  {
    id: "graphql-nullable-breaking",
    turns: [
      "After our schema change the iOS app crashes when it opens a profile.",
      "We made User.avatarUrl non-null in the GraphQL schema, but some resolvers return null for old accounts. A null in a non-null field nulls the parent object, and the app's generated types do not expect a null user.",
      "Roll back?",
      "I reverted avatarUrl to nullable and added a schema check in CI with graphql-inspector that flags breaking changes against the production schema.",
    ],
    queries: {
      paraphrase:
        "phone client crashing after we tightened a property requirement in the query contract",
      vague: "mobile app crash after api change",
      keyword: "non-null graphql-inspector avatarUrl",
    },
  },
  {
    id: "kafka-consumer-rebalance",
    turns: [
      "Our Kafka consumer group keeps rebalancing and lag grows to millions.",
      "Processing a batch takes longer than max.poll.interval.ms, 5 minutes, so the broker thinks the consumer died and reassigns its partitions. I reduced max.poll.records to 100 and moved the slow enrichment to a worker pool.",
      "Any setting to make rebalances cheaper?",
      "Switched partition.assignment.strategy to cooperative-sticky, so only moved partitions stop. Lag drains within minutes now.",
    ],
    queries: {
      paraphrase: "stream readers constantly reshuffled and the backlog exploded",
      vague: "message queue lag",
      keyword: "max.poll.interval.ms rebalancing cooperative-sticky",
    },
  },
  {
    id: "exif-orientation",
    turns: [
      "Photos uploaded from iPhones appear rotated sideways in the gallery.",
      "The JPEGs carry an EXIF Orientation tag instead of rotated pixels. Our thumbnailer with sharp strips metadata without applying it. Calling .rotate() with no arguments makes sharp auto-orient from EXIF before resizing.",
      "Original files too?",
      "Originals keep EXIF and browsers honour it; only the generated thumbnails were wrong. I regenerated the thumbnails of the last month.",
    ],
    queries: {
      paraphrase: "pictures from apple handsets showing turned ninety degrees in previews",
      vague: "images look wrong",
      keyword: "EXIF Orientation sharp rotate",
    },
  },
  {
    id: "csv-excel-bom",
    turns: [
      "Customers opening our CSV export in Excel see Ã© instead of é.",
      "The file is UTF-8 but Excel on Windows assumes the legacy code page unless the file starts with a byte order mark. I prepend \\uFEFF to the export.",
      "Some use semicolons as separator.",
      "Excel uses the list separator of the locale; I added a sep=; option to the export dialog for those users and kept comma as default.",
    ],
    queries: {
      paraphrase: "spreadsheet program garbling accented letters in the downloaded table",
      vague: "export encoding problem",
      keyword: "byte order mark Excel",
    },
  },
  {
    id: "oauth-redirect-mismatch",
    turns: [
      "Google sign-in fails with redirect_uri_mismatch on staging.",
      "Staging runs behind a load balancer that terminates TLS, so the app builds the callback as http://staging… while the console lists https. I set trust proxy so req.protocol reads X-Forwarded-Proto, and registered the staging callback in the Google console.",
      "Production works, why?",
      "Production sets PUBLIC_URL explicitly, which the callback uses; staging did not. Now both set it.",
    ],
    queries: {
      paraphrase: "third-party login refused our return address on the preview environment",
      vague: "social login broken",
      keyword: "redirect_uri_mismatch X-Forwarded-Proto",
    },
  },
  {
    id: "bash-pipefail",
    turns: [
      "Our deploy script reported success even though the database dump failed.",
      "The script runs pg_dump | gzip > backup.gz. Without pipefail the pipeline's status is gzip's, which succeeded. I added set -euo pipefail at the top.",
      "Now it fails on an unset variable.",
      "That is set -u catching $DEPLOY_ENV missing in cron's environment; I gave it a default with ${DEPLOY_ENV:-production}.",
    ],
    queries: {
      paraphrase:
        "shell automation claimed all good while an earlier stage of a chained command broke",
      vague: "script ignores errors",
      keyword: "pipefail pg_dump gzip",
    },
  },
  {
    id: "terraform-state-lock",
    turns: [
      "terraform apply says Error acquiring the state lock, and nobody is running it.",
      "A previous CI job was cancelled mid-apply and left the lock in the DynamoDB table. I checked the lock's ID and owner, confirmed the job is gone, and ran terraform force-unlock with that ID.",
      "Can CI avoid leaving locks?",
      "The pipeline now uses a concurrency group so two applies never overlap, and the cancel step sends SIGINT so Terraform releases the lock on its own.",
    ],
    queries: {
      paraphrase: "infrastructure tooling blocked by a stale hold after an aborted build",
      vague: "terraform stuck",
      keyword: "force-unlock DynamoDB state lock",
    },
  },
  {
    id: "dark-mode-flash",
    turns: [
      "Dark mode users see a white flash when the page loads.",
      "The theme is applied in a React effect after hydration, so the first paint uses the light styles. I added a tiny inline script in the head that reads localStorage and prefers-color-scheme and sets data-theme on html before anything renders.",
      "Does it break server rendering?",
      "No; the server renders without the attribute and the script runs before the first paint. suppressHydrationWarning on html silences the mismatch warning.",
    ],
    queries: {
      paraphrase: "bright blink at startup for people who chose the night palette",
      vague: "theme flicker",
      keyword: "prefers-color-scheme data-theme hydration",
    },
  },
  {
    id: "safari-date-parse",
    turns: [
      "The events page shows Invalid Date on Safari only.",
      "The API returns '2024-03-01 14:30:00' with a space. Chrome parses that, but Safari follows the spec strictly and needs the T separator. I changed the API to send full ISO 8601 with offset and parse with the Temporal polyfill's Instant.from in the client.",
      "Older cached responses?",
      "The client replaces the space with T as a fallback for a week; after that we remove it.",
    ],
    queries: {
      paraphrase: "apple browser could not read timestamps lacking the letter between day and hour",
      vague: "dates broken in one browser",
      keyword: "Invalid Date Safari ISO 8601",
    },
  },
  {
    id: "npm-eresolve-peer",
    turns: [
      "npm install fails with ERESOLVE unable to resolve dependency tree after upgrading React to 19.",
      "react-beautiful-dnd declares a peer dependency on react ^16 || ^17 || ^18. npm 7+ refuses conflicting peers. It is unmaintained, so I migrated the two drag lists to @dnd-kit/core, which supports React 19.",
      "Could we have used --legacy-peer-deps?",
      "It would install, but hides the conflict for every package. I preferred removing the stale library; install is clean now.",
    ],
    queries: {
      paraphrase:
        "installer refusing after a framework upgrade since an abandoned reorder widget wanted an older major",
      vague: "npm install error",
      keyword: "ERESOLVE peer dependency legacy-peer-deps",
    },
  },
  {
    id: "sentry-sourcemaps",
    turns: [
      "Sentry shows our production errors in minified code like a.b is not a function at main.3f2a.js:1:48213.",
      "The source maps are generated but never uploaded, and the release name in the SDK differs from the build's. I added the Sentry Vite plugin, which uploads the maps for the release and deletes them from the deployed files.",
      "Is the release consistent now?",
      "Both use the git commit SHA from the CI variable. New errors show original file names and lines.",
    ],
    queries: {
      paraphrase:
        "crash reports pointing to unreadable compressed output instead of what we actually wrote",
      vague: "error tracking unreadable",
      keyword: "source maps Sentry release",
    },
  },
  {
    id: "ssh-key-permissions",
    turns: [
      "ssh to the build server says WARNING: UNPROTECTED PRIVATE KEY FILE and asks for a password.",
      "The key was copied from a USB stick and has mode 0644. OpenSSH ignores private keys readable by others. chmod 600 ~/.ssh/id_ed25519 and chmod 700 ~/.ssh fixes it.",
      "It still picks the wrong key.",
      "Add a Host entry in ~/.ssh/config with IdentityFile and IdentitiesOnly yes, so only that key is offered.",
    ],
    queries: {
      paraphrase: "remote login ignored my credential since anybody could read it",
      vague: "ssh not working",
      keyword: "chmod 600 IdentitiesOnly id_ed25519",
    },
  },
  {
    id: "feature-flag-cleanup",
    turns: [
      "We have 140 feature flags in LaunchDarkly and nobody knows which are still used.",
      "I wrote a script that lists flags with 100% rollout for over 30 days and greps the code for their keys. 52 are fully on and can be removed; 18 have no references left in the code at all.",
      "How do we stop them piling up?",
      "Every new flag now needs an owner and an expiry date tag, and a weekly job opens an issue for expired flags.",
    ],
    queries: {
      paraphrase: "hundreds of toggles nobody remembered, pruned the permanently enabled ones",
      vague: "cleanup old switches",
      keyword: "LaunchDarkly rollout flags expiry",
    },
  },
  {
    id: "elasticsearch-mapping-explosion",
    turns: [
      "Elasticsearch rejects documents with 'Limit of total fields [1000] has been exceeded'.",
      "We index user-defined attributes as object fields, so every new attribute name adds a mapping field; dynamic mapping created 1000 of them. I changed attributes to the flattened field type, which maps the whole object as one field.",
      "Searching by attribute still works?",
      "Yes, flattened supports term queries on attributes.color and similar keys. The old index was reindexed through an alias swap.",
    ],
    queries: {
      paraphrase:
        "search cluster refusing records once customer-specific properties grew past a ceiling",
      vague: "search indexing error",
      keyword: "flattened mapping total fields",
    },
  },
];
