// The portal's only script (the CSP forbids inline ones): sends the CSRF token with every
// htmx request and makes the "Copy" buttons work (a field's value or an id shown as text). Every page works without it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // <time data-local>: the reader's own time zone, with the UTC time kept on hover.
  function localTimes(root) {
    var times = root.querySelectorAll("time[data-local]");
    for (var i = 0; i < times.length; i++) {
      var at = new Date(times[i].getAttribute("datetime"));
      if (isNaN(at.getTime())) { continue; }
      times[i].title = times[i].textContent.trim();
      times[i].textContent = at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      times[i].removeAttribute("data-local");
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
  } else {
    localTimes(document);
  }
  document.addEventListener("htmx:afterSwap", function (event) { localTimes(event.target); });

  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) {
      event.detail.headers["X-CSRFToken"] = meta.getAttribute("content");
    }
  });

  function copied(button) {
    var label = button.textContent;
    button.textContent = "Copied";
    button.classList.add("is-copied");
    window.setTimeout(function () {
      button.textContent = label;
      button.classList.remove("is-copied");
    }, 2000);
  }

  document.addEventListener("click", function (event) {
    var textButton = event.target.closest("[data-copy-text]");
    if (textButton) {
      var text = textButton.getAttribute("data-copy-text");
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { copied(textButton); });
      } else {
        var range = document.createRange();
        range.selectNodeContents(textButton.previousElementSibling || textButton);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        if (document.execCommand("copy")) { copied(textButton); }
      }
      return;
    }
    var button = event.target.closest("[data-copy]");
    if (!button) {
      return;
    }
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    field.focus();
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { copied(button); });
    } else if (document.execCommand("copy")) {
      copied(button);
    }
  });
})();
