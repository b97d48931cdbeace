// The flags an event may carry (log format 1.1, "Flags"): what an official should look at, in words, from the
// catalog's [flag] and [flag-label]. A flag never changes a ruling or the score.

import {has, phraseIn} from "./catalog.mjs";

/** A flag's meaning in ``lang`` (its code, for a flag this page does not know). */
export const flagMeaning = (code, lang) => (has("flag", code) ? phraseIn(lang, "flag", code) : code);

/** A flag's short label in ``lang``, as a tag beside an event (its code, for a flag this page does not know). */
export const flagLabel = (code, lang) => (has("flag-label", code) ? phraseIn(lang, "flag-label", code) : code);
