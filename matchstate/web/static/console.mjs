// The scorer's console page's entry: the console (consolepage.mjs) started on this page, and who must sit out.

import {$} from "./dom.mjs";
import {ConsolePage} from "./consolepage.mjs";
import "./sitouts.mjs";

new ConsolePage($("console")).start();
