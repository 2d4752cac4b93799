import { Cli } from "clipanion";
const { SearchCommand } = await import("/work/main/dist/cli/commands/search.js");
const { quickCommand } = await import("/work/main/dist/cli/quick-parse.js");
const which = process.argv[2];
const argv = ["search", "--since", "7d", "-n", "5", "deploy", "staging"];
const t0 = performance.now();
let cmd;
if (which === "cli") { const cli = new Cli({ binaryName: "recall" }); cli.register(SearchCommand); cmd = cli.process(argv, {}); }
else cmd = quickCommand(SearchCommand, argv, {});
const t1 = performance.now();
console.log(which, (t1 - t0).toFixed(2), "ms", cmd.limit, cmd.query ?? cmd.words);
