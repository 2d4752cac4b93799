// The held-back set of the paraphrase evaluation (issue 40): written by hand after the fusion's
// weights were chosen on topics.mjs, and never tuned on — it only reports. Same rules and shapes as
// topics.mjs (check.mjs), on other developer topics, five close pairs, and two more query kinds
// of the known-item evaluation's shapes:
//  - remembered: 3–4 words a person keeps from one message of the session;
//  - two: two words of one message.
// eval.mjs derives two more from `remembered`: `misspelt` (one word with two letters swapped) and
// `absent` (one word replaced by one the session never says).

export const HELD_BACK = [
  {
    id: "mysql-emoji-utf8mb4",
    pair: "garbled-text",
    turns: [
      "Customer reviews that contain emoji are saved as four question marks in MySQL, and some inserts fail with 'Incorrect string value'.",
      "The reviews table was created with the utf8 charset, which in MySQL is utf8mb3 and stores at most three bytes per character. Emoji need four. I altered the table and the column to utf8mb4 with the utf8mb4_unicode_ci collation.",
      "Does the connection need changing too?",
      "Yes: the pool's charset option was still utf8, so the driver converted before sending. I set charset: 'utf8mb4' in the connection config and re-saved a review with a thumbs-up; it reads back intact.",
    ],
    queries: {
      paraphrase: "smileys in user feedback turned into ???? when stored",
      vague: "emoji broken in database",
      keyword: "utf8mb4 collation charset",
      remembered: "reviews emoji question marks",
      two: "utf8mb3 emoji",
    },
  },
  {
    id: "gzip-double-encoding",
    pair: "garbled-text",
    turns: [
      "Some API responses arrive as binary garbage in the browser, but curl with --compressed shows valid JSON.",
      "The Express app uses the compression middleware and the nginx in front of it has gzip on with gzip_proxied any. For responses above 1 KB both compress, so the body is gzipped twice while Content-Encoding says gzip once. The browser undoes one layer and shows the rest as bytes.",
      "Which one should we keep?",
      "nginx: it already compresses static assets. I removed the compression middleware from the app and the responses decode in every browser now.",
    ],
    queries: {
      paraphrase: "payloads squeezed two times by proxy plus server, clients saw junk",
      vague: "garbled responses in browser",
      keyword: "gzip_proxied compression Content-Encoding",
      remembered: "nginx gzip twice middleware",
      two: "compressed garbage",
    },
  },
  {
    id: "node-heap-oom-build",
    turns: [
      "The production webpack build dies on CI with 'JavaScript heap out of memory' since we added the charting library.",
      "Node's default old-space limit is about 2 GB on that runner and the build with source maps for every chunk peaks above it. Setting NODE_OPTIONS=--max-old-space-size=4096 gets it through, and switching devtool from source-map to hidden-source-map lowered the peak by 600 MB.",
      "Is 4 GB safe on the runner?",
      "The runner has 7 GB. I also turned on the persistent filesystem cache so later builds do less work; peak memory is now 2.9 GB.",
    ],
    queries: {
      paraphrase: "bundler crashed for lack of RAM after adding a plotting package",
      vague: "build runs out of memory",
      keyword: "max-old-space-size NODE_OPTIONS heap",
      remembered: "webpack heap charting library",
      two: "heap webpack",
    },
  },
  {
    id: "jest-esm-transform",
    turns: [
      "Jest fails with 'SyntaxError: Cannot use import statement outside a module' in a file inside node_modules/lodash-es.",
      "babel-jest only transforms our own files: transformIgnorePatterns skips node_modules by default, and lodash-es ships ES modules. I changed the pattern to '/node_modules/(?!lodash-es)' so that package is transformed too.",
      "Could we just use lodash instead?",
      "We could, but lodash-es tree-shakes in the app bundle. With the pattern the suite passes; I left a comment in jest.config.js listing why the exception exists.",
    ],
    queries: {
      paraphrase:
        "spec harness choked on a third-party library authored using modern export syntax",
      vague: "test runner import error",
      keyword: "transformIgnorePatterns lodash-es babel-jest",
      remembered: "Cannot use import statement",
      two: "lodash-es jest",
    },
  },
  {
    id: "vite-env-undefined",
    turns: [
      "In the Vite app import.meta.env.API_URL is undefined in the browser even though it is in .env.",
      "Vite only exposes variables prefixed with VITE_ to client code, so secrets on the server side are not leaked by accident. Renamed it to VITE_API_URL in .env and in the code, and restarted the dev server because .env is read at startup.",
      "What about the production build?",
      "The build reads .env.production; I added VITE_API_URL there as well and typed it in env.d.ts so a missing one is a compile error.",
    ],
    queries: {
      paraphrase: "frontend setting from dotfile came out empty in the web page",
      vague: "environment variable missing in frontend",
      keyword: "VITE_API_URL import.meta.env",
      remembered: "Vite prefixed variables client",
      two: "undefined VITE_",
    },
  },
  {
    id: "pagination-offset-duplicates",
    pair: "pagination",
    turns: [
      "Users scrolling the activity feed see the same post twice when new posts come in while they scroll.",
      "The feed uses LIMIT 20 OFFSET n. A post inserted at the top shifts everything down by one, so the next page starts with the last post of the previous one. I replaced the offset with keyset pagination: the client sends the created_at and id of the last post and the query asks for rows before that.",
      "Does the index support it?",
      "There is an index on (created_at, id), so the keyset query is a range scan and stays fast even on deep pages, unlike the offset which read and threw away rows.",
    ],
    queries: {
      paraphrase: "endless listing repeated an entry whenever fresh items arrived meanwhile",
      vague: "duplicate items while scrolling",
      keyword: "keyset OFFSET created_at",
      remembered: "feed same post twice",
      two: "keyset pagination",
    },
  },
  {
    id: "pagination-sort-unstable",
    pair: "pagination",
    turns: [
      "The admin table of invoices sometimes shows an invoice on page 2 and again on page 3, and another one never appears.",
      "Hundreds of invoices were imported with the same issued_at timestamp. ORDER BY issued_at alone leaves their order undefined, and Postgres may return them differently for each page query. I added the primary key as a tiebreaker: ORDER BY issued_at DESC, id DESC.",
      "Is that needed anywhere else?",
      "I grepped for ORDER BY in the list endpoints and added the id tiebreaker to four more; a test now pages through 500 rows with equal timestamps and checks each appears once.",
    ],
    queries: {
      paraphrase:
        "records showing up on two screens and some never, because ties had no defined sequence",
      vague: "table pages skip rows",
      keyword: "tiebreaker issued_at invoices",
      remembered: "imported same timestamp order undefined",
      two: "tiebreaker invoices",
    },
  },
  {
    id: "jvm-dns-cache-failover",
    turns: [
      "After the database failover the Java service kept connecting to the old primary's IP for hours, although DNS already pointed to the new one.",
      "The JVM caches successful DNS lookups, and with a security manager installed the default is forever. Our base image sets one. I set networkaddress.cache.ttl=30 in the java.security file of the image.",
      "And the connection pool?",
      "HikariCP keeps connections open, so I also set maxLifetime to 10 minutes; together a failover is picked up within a minute, as the drill this afternoon showed.",
    ],
    queries: {
      paraphrase: "app went on talking to a retired host address long after switching leaders",
      vague: "service connects to old server",
      keyword: "networkaddress.cache.ttl HikariCP maxLifetime",
      remembered: "failover old primary IP",
      two: "JVM DNS",
    },
  },
  {
    id: "tls-intermediate-missing",
    turns: [
      "Our API works in desktop browsers and curl, but the Android app fails with 'Trust anchor for certification path not found'.",
      "The server sends only the leaf certificate. Desktop browsers fetch the missing intermediate by themselves through AIA, Android does not. The nginx config pointed ssl_certificate at cert.pem; it must be fullchain.pem, which has the intermediate after the leaf.",
      "How can we check it?",
      "openssl s_client -connect api.example.com:443 -showcerts now lists two certificates, and SSL Labs no longer reports the chain as incomplete. The Android app connects.",
    ],
    queries: {
      paraphrase: "phones refused our HTTPS endpoint since the served bundle lacked a middle link",
      vague: "certificate error on mobile",
      keyword: "fullchain.pem intermediate s_client",
      remembered: "Android trust anchor certification path",
      two: "intermediate Android",
    },
  },
  {
    id: "disk-inodes-exhausted",
    pair: "disk-full",
    turns: [
      "The app server says 'No space left on device' when writing, but df -h shows 40% of the disk free.",
      "df -i shows 100% inode use. The PHP session handler writes one small file per session into /var/lib/php/sessions and its garbage collection was disabled by the distribution's config, so millions of files piled up. Each file uses an inode however small it is.",
      "How did you clean it?",
      "find /var/lib/php/sessions -mmin +1440 -delete freed 3 million inodes; then I moved sessions to Redis so the files stop piling up.",
    ],
    queries: {
      paraphrase:
        "storage claimed to be exhausted while plenty of gigabytes remained, tiny leftovers everywhere",
      vague: "disk full but not really",
      keyword: "inode df -i sessions",
      remembered: "No space left on device",
      two: "inodes PHP",
    },
  },
  {
    id: "disk-deleted-open-file",
    pair: "disk-full",
    turns: [
      "We deleted 30 GB of old logs on the worker but df still says the disk is full.",
      "The worker process still had the big log file open. Deleting it removed the name, but the blocks stay allocated until the last file descriptor is closed. lsof +L1 lists it as deleted and 28 GB.",
      "Can we avoid restarting it?",
      "Truncating through /proc/<pid>/fd/<n> freed the space at once. For the future I configured logrotate with copytruncate for that log, since the worker never reopens its file.",
    ],
    queries: {
      paraphrase:
        "removing huge journals did not give back capacity because a running program still held them",
      vague: "deleting files does not free space",
      keyword: "lsof copytruncate descriptor",
      remembered: "deleted logs disk still full",
      two: "logrotate copytruncate",
    },
  },
  {
    id: "git-submodule-detached",
    turns: [
      "I committed changes inside the vendor/ui submodule last week and now they are gone after a git submodule update.",
      "Submodules are checked out at the recorded commit with a detached HEAD. Your commits were made on no branch, and the update moved HEAD away from them. git reflog inside the submodule still has them: I created a branch at that commit and pushed it.",
      "How do I avoid it?",
      "Before working in the submodule, git switch main inside it; and use git submodule update --remote --merge so updates merge into your branch instead of detaching.",
    ],
    queries: {
      paraphrase: "work done in a nested repository vanished after refreshing it",
      vague: "lost commits in git",
      keyword: "submodule reflog detached",
      remembered: "vendor/ui submodule update gone",
      two: "submodule detached",
    },
  },
  {
    id: "git-large-file-history",
    turns: [
      "Someone committed a 2 GB database dump three weeks ago and now every clone takes forever, even though the file was deleted later.",
      "Deleting the file keeps it in history, so every clone still downloads it. I rewrote the history with git filter-repo --path dump.sql --invert-paths and force-pushed all branches after telling the team.",
      "What do people with old clones do?",
      "They must re-clone or reset hard to the new branches, otherwise a push brings the dump back. I added *.sql to .gitignore and a pre-receive hook that rejects files over 50 MB.",
    ],
    queries: {
      paraphrase: "repository became enormous because a huge backup lives in its past",
      vague: "git repo too big",
      keyword: "filter-repo invert-paths pre-receive",
      remembered: "database dump clone forever",
      two: "dump filter-repo",
    },
  },
  {
    id: "python-mutable-default",
    turns: [
      "Our helper add_tag(item, tags=[]) sometimes returns tags from a previous call, and it only happens in the long-running worker.",
      "The default list is created once when the function is defined, not at each call, so every call without tags appends to the same list. In a short script it never shows; in the worker the list grows forever. I changed the default to None and create a new list inside.",
      "Can a linter catch this?",
      "Yes, flake8-bugbear's B006 flags mutable default arguments. I enabled it in CI and it found two more in the billing module.",
    ],
    queries: {
      paraphrase: "a routine with an optional parameter retained values between invocations",
      vague: "python function remembers old values",
      keyword: "B006 flake8-bugbear mutable",
      remembered: "default list created once",
      two: "mutable default",
    },
  },
  {
    id: "python-gil-cpu-threads",
    turns: [
      "I parallelized thumbnail generation with a ThreadPoolExecutor of 8 workers and it is no faster than the loop.",
      "Resizing with Pillow in pure Python code holds the GIL, so only one thread computes at a time; threads help with waiting on I/O, not with CPU work. ProcessPoolExecutor runs separate interpreters: on the 8-core box the batch went from 96 s to 15 s.",
      "Any downside?",
      "Each task's arguments are pickled, so pass file paths, not image bytes. Memory grows with one interpreter per process, about 60 MB each here.",
    ],
    queries: {
      paraphrase: "concurrency gave no speedup for picture shrinking because of the global lock",
      vague: "parallel code not faster",
      keyword: "ProcessPoolExecutor GIL Pillow",
      remembered: "thumbnail ThreadPoolExecutor no faster",
      two: "GIL threads",
    },
  },
  {
    id: "sql-not-in-null",
    pair: "empty-result",
    turns: [
      "SELECT * FROM users WHERE id NOT IN (SELECT owner_id FROM projects) returns zero rows, but I know some users own no project.",
      "projects.owner_id is nullable and one row has NULL. x NOT IN (..., NULL) is never true: comparing with NULL gives unknown, so every row is filtered out. NOT EXISTS (SELECT 1 FROM projects p WHERE p.owner_id = users.id) does what you mean.",
      "Should owner_id be NOT NULL?",
      "That NULL was an orphaned import row; I deleted it and added the NOT NULL constraint, and rewrote the report query with NOT EXISTS anyway.",
    ],
    queries: {
      paraphrase: "exclusion subselect yielded nothing since one column value was blank",
      vague: "query returns no rows unexpectedly",
      keyword: "NOT EXISTS owner_id NULL",
      remembered: "users own no project zero rows",
      two: "orphaned NULL",
    },
  },
  {
    id: "sql-left-join-where",
    pair: "empty-result",
    turns: [
      "The customer report should list every customer with their orders from this year, but customers without orders are missing.",
      "The query LEFT JOINs orders and then filters WHERE orders.created_at >= '2026-01-01'. For a customer without orders that column is NULL, the WHERE drops the row, and the left join behaves like an inner join. The date condition belongs in the ON clause.",
      "And the count column?",
      "COUNT(orders.id) instead of COUNT(*) gives 0 for them. The report now lists all 1,204 customers.",
    ],
    queries: {
      paraphrase:
        "outer combination silently acted as a plain one because of a predicate placed after it, dropping clients who bought nothing",
      vague: "report missing rows",
      keyword: "LEFT JOIN ON clause COUNT",
      remembered: "customers without orders missing",
      two: "left join",
    },
  },
  {
    id: "chunk-load-error-deploy",
    turns: [
      "After every deploy some users get 'ChunkLoadError: Loading chunk 42 failed' until they reload.",
      "Their open tab still runs the old main bundle, which asks for the old hashed chunk files, and the deploy deletes the previous build from the bucket. I changed the upload to keep the previous two releases' assets.",
      "And if the tab is older than that?",
      "The router now catches ChunkLoadError on navigation and does one full page reload, guarded by a sessionStorage flag so it cannot loop.",
    ],
    queries: {
      paraphrase:
        "lazy parts of the app could not be fetched by visitors whose browser window predated a rollout",
      vague: "errors after deploying frontend",
      keyword: "ChunkLoadError sessionStorage hashed",
      remembered: "loading chunk failed reload",
      two: "ChunkLoadError deploy",
    },
  },
  {
    id: "react-hydration-mismatch",
    turns: [
      "Next.js logs 'Text content does not match server-rendered HTML' on the order page and the timestamps flicker.",
      "The component formats the order time with toLocaleString during render. The server renders it in UTC with en-US, the browser in the user's zone and locale, so the HTML differs and React warns on hydration. I render the ISO string first and format it in a useEffect after mount.",
      "Won't that flash?",
      "It swaps within the first frame; alternatively suppressHydrationWarning on that element hides the warning, but I preferred the effect so the text is right.",
    ],
    queries: {
      paraphrase:
        "markup painted on the backend disagreed with what the visitor machine produced for dates",
      vague: "react warning about server html",
      keyword: "hydration toLocaleString suppressHydrationWarning",
      remembered: "timestamps flicker order page",
      two: "hydration Next.js",
    },
  },
  {
    id: "ios-keyboard-covers-input",
    turns: [
      "On iPhone the chat input at the bottom is hidden behind the on-screen keyboard when you tap it.",
      "The input bar is position: fixed; bottom: 0. iOS Safari does not shrink the layout viewport when the keyboard opens, only the visual viewport, so bottom: 0 stays behind the keyboard. I listen to visualViewport resize and move the bar up by the difference.",
      "Is there a CSS-only way?",
      "Using 100dvh for the page height and interactive-widget=resizes-content in the viewport meta works on newer versions; I kept the visualViewport listener as a fallback for iOS 15.",
    ],
    queries: {
      paraphrase: "typing box on apple phones got obscured once the touch keys popped up",
      vague: "mobile input hidden",
      keyword: "visualViewport 100dvh interactive-widget",
      remembered: "chat input hidden keyboard",
      two: "iPhone keyboard",
    },
  },
  {
    id: "leaked-api-key",
    turns: [
      "GitHub emailed us that a Stripe secret key was found in a public commit of the docs repo.",
      "First I rolled the key in the Stripe dashboard so the leaked one stops working, and checked the logs for calls made with it: none outside our servers. Removing it from the file alone does not help, since the commit stays public.",
      "How do we stop it happening again?",
      "I added gitleaks as a pre-commit hook and as a CI step that fails on any detected secret, and moved the key into the deployment's secret store.",
    ],
    queries: {
      paraphrase: "a payment credential got published by mistake and had to be replaced",
      vague: "secret pushed to github",
      keyword: "gitleaks Stripe pre-commit",
      remembered: "secret key public commit",
      two: "rolled key",
    },
  },
  {
    id: "cache-stampede",
    turns: [
      "Every hour at :00 the database CPU spikes to 100% for about a minute and the homepage times out.",
      "The homepage data is cached in Redis with a TTL of exactly one hour, filled at the top of the hour. When it expires, hundreds of requests miss at once and all run the expensive query: a thundering herd. I added a lock so one request recomputes while the others serve the stale value.",
      "What about the timing?",
      "The TTL now gets random jitter of up to five minutes, and the value is refreshed early when it is close to expiry. The spike is gone from the graphs.",
    ],
    queries: {
      paraphrase:
        "hourly surge hammering the backend when a stored result lapsed for everyone simultaneously",
      vague: "database load spike every hour",
      keyword: "thundering herd jitter TTL",
      remembered: "homepage cached Redis expires",
      two: "stale jitter",
    },
  },
  {
    id: "systemd-env-missing",
    pair: "works-in-shell",
    turns: [
      "The report service runs fine when I start it in my shell, but as a systemd unit it fails with 'DATABASE_URL is not set'.",
      "systemd does not read your shell profile, so variables exported in .bashrc are not there. I put them in /etc/report/env and added EnvironmentFile=/etc/report/env to the unit, then systemctl daemon-reload and restart.",
      "Anything else different?",
      "The working directory too: the unit now sets WorkingDirectory so relative paths resolve; journalctl -u report shows it starting cleanly.",
    ],
    queries: {
      paraphrase: "background process could not see configuration that an interactive terminal had",
      vague: "works manually fails as service",
      keyword: "EnvironmentFile daemon-reload journalctl",
      remembered: "DATABASE_URL not set unit",
      two: "systemd bashrc",
    },
  },
  {
    id: "cron-path-missing",
    pair: "works-in-shell",
    turns: [
      "The nightly backup script works when I run it myself but the cron job produces an empty archive.",
      "Cron runs with a minimal PATH of /usr/bin:/bin, and the script calls pg_dump, which is installed in /usr/local/pgsql/bin. The command was not found, and since the script had no set -e it went on and tarred nothing. The mail cron sent said 'pg_dump: command not found'.",
      "What did you change?",
      "I set PATH at the top of the crontab, used the absolute path in the script, and added set -euo pipefail so a missing command fails the job loudly.",
    ],
    queries: {
      paraphrase:
        "scheduled overnight task quietly produced nothing since a program could not be located",
      vague: "scheduled job fails",
      keyword: "crontab pg_dump PATH",
      remembered: "backup empty archive cron",
      two: "crontab pg_dump",
    },
  },
  {
    id: "excel-date-serial",
    turns: [
      "The spreadsheet import shows dates like 45123 instead of 2023-07-16.",
      "Excel stores dates as the number of days since its epoch, and the xlsx reader gives the raw number when the cell's format is not recognized. Day 1 is 1900-01-01, but Excel counts a 29 February 1900 that never existed, so the usual conversion is days after 1899-12-30.",
      "Can the library do it?",
      "Passing cellDates: true to the reader converts cells with a date format; for the columns typed as general I convert the serial number with that epoch.",
    ],
    queries: {
      paraphrase: "calendar values from a workbook arrived as big integers",
      vague: "wrong dates in import",
      keyword: "cellDates serial 1899-12-30",
      remembered: "spreadsheet import shows dates",
      two: "Excel epoch",
    },
  },
  {
    id: "upload-buffer-memory",
    turns: [
      "The upload endpoint crashes the Node process with out of memory when someone uploads a 3 GB video.",
      "multer's memoryStorage keeps each whole file in a Buffer, so a big upload needs that much RAM. I switched to streaming the request with busboy straight into the S3 multipart upload, so memory stays flat whatever the size.",
      "Should there be a limit?",
      "Yes: busboy's limits.fileSize at 5 GB, and nginx client_max_body_size the same, so a bigger file is refused with 413 before it reaches the app.",
    ],
    queries: {
      paraphrase: "backend died on huge clips since it held each one completely in heap",
      vague: "large upload crashes server",
      keyword: "busboy memoryStorage multipart",
      remembered: "video upload out of memory",
      two: "multer busboy",
    },
  },
  {
    id: "bigint-json-precision",
    turns: [
      "Tweets fetched from our API have wrong ids in the frontend: 1592380142387712003 becomes 1592380142387712000.",
      "JSON numbers are parsed into JavaScript doubles, which hold integers exactly only up to 2^53. 64-bit ids above that lose their last digits. The server now sends ids as strings, id_str, and the client never parses them as numbers.",
      "What about sorting by id?",
      "Strings of equal length sort like the numbers; where lengths differ I compare with BigInt. A test feeds an id above Number.MAX_SAFE_INTEGER through the whole stack.",
    ],
    queries: {
      paraphrase: "long identifiers got their trailing figures rounded away in the browser",
      vague: "ids changed in frontend",
      keyword: "MAX_SAFE_INTEGER BigInt id_str",
      remembered: "64-bit ids lose digits",
      two: "doubles integers",
    },
  },
  {
    id: "sse-proxy-buffering",
    turns: [
      "Server-sent events from the progress endpoint reach the browser in bursts every few seconds instead of one by one.",
      "nginx buffers proxied responses by default and sends them when the buffer fills. For an event stream that means delays. I set proxy_buffering off for that location; the app can also send the header X-Accel-Buffering: no.",
      "Is anything else needed?",
      "proxy_read_timeout raised to an hour, and a comment line every 15 seconds as a heartbeat so idle streams are not closed. The progress bar now moves smoothly.",
    ],
    queries: {
      paraphrase: "live status notifications landed in clumps because the gateway held them back",
      vague: "events arrive late",
      keyword: "proxy_buffering X-Accel-Buffering heartbeat",
      remembered: "progress endpoint bursts",
      two: "Server-sent buffers",
    },
  },
  {
    id: "locale-decimal-parse",
    turns: [
      "German users entering a price of 1,5 get 1 saved instead of 1.5.",
      "parseFloat stops at the comma, so '1,5' becomes 1. The form field takes free text, and in German the comma is the decimal separator. I parse with the user's locale: Intl.NumberFormat tells the group and decimal characters, and the input is normalized before parsing.",
      "And display?",
      "Prices are shown with Intl.NumberFormat in the user's locale too, and the field uses inputmode=decimal so phones offer the right keyboard.",
    ],
    queries: {
      paraphrase: "amounts typed by europeans lost their fraction when stored",
      vague: "number input wrong for some countries",
      keyword: "parseFloat Intl.NumberFormat inputmode",
      remembered: "German users price comma",
      two: "decimal separator",
    },
  },
  {
    id: "compose-db-not-ready",
    turns: [
      "docker compose up starts the app before Postgres accepts connections and the app exits with ECONNREFUSED.",
      "depends_on only waits for the container to start, not for the database inside to be ready. I added a healthcheck running pg_isready to the db service and condition: service_healthy to the app's depends_on.",
      "Should the app retry too?",
      "Yes, in production nothing orders the startup. The app now retries its first connection with backoff for 30 seconds before giving up.",
    ],
    queries: {
      paraphrase: "orchestration launched our program before its store was able to take clients",
      vague: "app starts too early",
      keyword: "pg_isready service_healthy depends_on",
      remembered: "compose up ECONNREFUSED Postgres",
      two: "healthcheck depends_on",
    },
  },
  {
    id: "sqlite-database-locked",
    turns: [
      "The desktop app's background sync fails with 'SQLITE_BUSY: database is locked' while the user edits notes.",
      "In the default rollback journal mode a writer locks the whole file, and the second connection fails immediately because busy_timeout is 0. I turned on journal_mode=WAL, which lets readers and one writer work together, and set busy_timeout to 5000 ms.",
      "Two writers still conflict?",
      "They wait now instead of failing. I also moved all writes to one connection owned by the sync service, so only reads happen elsewhere.",
    ],
    queries: {
      paraphrase: "embedded storage refused simultaneous modifications from the syncing thread",
      vague: "database locked errors",
      keyword: "SQLITE_BUSY busy_timeout WAL",
      remembered: "sync fails while user edits notes",
      two: "journal_mode WAL",
    },
  },
  {
    id: "email-spam-spf-dkim",
    turns: [
      "Password reset emails end up in Gmail's spam folder for most users.",
      "The domain had no SPF record listing the mail provider and the messages were not signed. I added an SPF TXT record with include:mailgun.org, published the DKIM key the provider gave us, and added a DMARC record with p=none to start.",
      "How do we know it worked?",
      "Gmail's 'show original' now says SPF: PASS and DKIM: PASS, and the reset emails land in the inbox in our test accounts.",
    ],
    queries: {
      paraphrase: "recovery notices treated as junk by a big webmail service",
      vague: "emails going to spam",
      keyword: "DKIM SPF DMARC",
      remembered: "password reset spam folder",
      two: "mailgun DKIM",
    },
  },
];
