/** Input quoted short in a one-line message, as the library quotes it in its own (src/quote.ts). */
export { quote, shorten } from "../quote.js";
