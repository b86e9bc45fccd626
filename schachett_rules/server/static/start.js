// The start page: choosing other rules shows their readings and players at once.
"use strict";
const pick = document.getElementById("ruleset");
if (pick) pick.addEventListener("change", () => pick.form.submit());
