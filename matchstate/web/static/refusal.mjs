// Why the server said no, in the language chosen: a refusal's body carries its words in each language
// beside the `detail` (English, and what an older server gives alone).

import {reason} from "./http.mjs";
import {lang} from "./lang.mjs";

/** A refusal's body in words: its ``words`` in the language chosen, else its ``detail``. */
export const refusal = (data) => (data && data.words && data.words[lang()]) || reason(data);
