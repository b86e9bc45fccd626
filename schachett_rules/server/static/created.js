// The page of a new table: a link is copied with one press (the address bar of a phone is hard to copy from).
"use strict";
for (const button of document.querySelectorAll("button.copy")) {
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = "Copied";
    } catch (e) {
      button.previousElementSibling.select();     // no clipboard here: the link is selected to copy by hand
    }
  });
}
