// The Documents pages' script (the CSP forbids inline ones). It uploads each chosen or
// dropped file on its own request with a progress bar and the server's answer in words,
// narrows the custom field filter's conditions to the chosen field's type, and ticks every
// row for "select all on this page". Every page works without it: the upload form posts,
// the filter's server says which condition does not apply, the select-all box is sent.
(function () {
  "use strict";

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  // --- upload ----------------------------------------------------------------------------

  var FALLBACK = {
    0: "The connection failed before the server answered; try again.",
    400: "The page has expired; reload it and try again.",
    403: "You may not upload here; sign in again or ask an admin.",
    409: "The server refused the file as a duplicate.",
    413: "The file is too large for the server.",
    415: "The server does not accept this kind of file.",
    422: "The server refused the file.",
    429: "Too many uploads at once; wait a minute and try again."
  };

  function words(xhr, name) {
    var body = null;
    try {
      body = JSON.parse(xhr.responseText);
    } catch (ignored) {
      body = null;
    }
    if (body && body.message) {
      return { message: body.message, url: body.url, ok: !!body.ok };
    }
    var why = FALLBACK[xhr.status] || "The server could not store it (" + xhr.status + ").";
    return { message: "“" + name + "” was not added: " + why, ok: false };
  }

  function setupUpload(form) {
    var input = form.querySelector('input[type="file"]');
    var zone = form.querySelector("[data-drop-zone]");
    var list = document.getElementById("upload-list");
    var summary = document.getElementById("upload-summary");
    var button = document.getElementById("upload-submit");
    var queue = [];
    form.classList.add("is-enhanced");

    function add(files) {
      for (var i = 0; i < files.length; i++) {
        var item = document.createElement("li");
        item.className = "upload-item";
        var name = document.createElement("span");
        name.className = "upload-name";
        name.textContent = files[i].name;
        var bar = document.createElement("progress");
        bar.max = 100;
        bar.value = 0;
        bar.setAttribute("aria-label", "Upload of " + files[i].name);
        var message = document.createElement("span");
        message.className = "upload-message";
        message.textContent = "Waiting";
        item.appendChild(name);
        item.appendChild(bar);
        item.appendChild(message);
        list.appendChild(item);
        queue.push({ file: files[i], item: item, bar: bar, message: message });
      }
      summary.textContent = queue.length + (queue.length === 1 ? " file" : " files") + " ready to upload.";
    }

    input.addEventListener("change", function () {
      add(input.files);
      input.value = "";
    });
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) {
        event.preventDefault();
        zone.classList.add("is-over");
      });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function (event) {
        event.preventDefault();
        zone.classList.remove("is-over");
      });
    });
    zone.addEventListener("drop", function (event) {
      if (event.dataTransfer && event.dataTransfer.files) {
        add(event.dataTransfer.files);
      }
    });

    function send(entry, done) {
      var data = new FormData();
      data.append("csrf_token", csrfToken());
      data.append("file", entry.file, entry.file.name);
      data.append("tags", form.querySelector('[name="tags"]').value);
      if (form.querySelector('[name="duplicates"]').checked) {
        data.append("duplicates", "keep");
      }
      var xhr = new XMLHttpRequest();
      xhr.open("POST", form.getAttribute("action"));
      xhr.setRequestHeader("X-CSRFToken", csrfToken());
      xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
      xhr.setRequestHeader("Accept", "application/json");
      entry.message.textContent = "Uploading";
      xhr.upload.addEventListener("progress", function (event) {
        if (event.lengthComputable) {
          entry.bar.value = Math.round((event.loaded / event.total) * 100);
        }
      });
      xhr.addEventListener("loadend", function () {
        var answer = words(xhr, entry.file.name);
        var ok = xhr.status === 201 && answer.ok;
        entry.bar.value = ok ? 100 : entry.bar.value;
        entry.item.classList.add(ok ? "is-done" : "is-refused");
        entry.item.setAttribute("data-ok", ok ? "true" : "false");
        entry.message.textContent = answer.message + " ";
        if (!ok) {
          entry.message.classList.add("text-error");
          entry.message.setAttribute("role", "alert");
        }
        if (answer.url) {
          var link = document.createElement("a");
          link.href = answer.url;
          link.textContent = ok ? "Open" : "Open the stored one";
          entry.message.appendChild(link);
        }
        done(ok);
      });
      xhr.send(data);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!queue.length) {
        summary.textContent = "Choose or drop one or more files first.";
        return;
      }
      var batch = queue;
      var added = 0;
      var index = 0;
      queue = [];
      button.disabled = true;
      function next() {
        if (index >= batch.length) {
          button.disabled = false;
          summary.textContent = added + " of " + batch.length + " files added.";
          form.setAttribute("data-finished", String(batch.length));
          return;
        }
        send(batch[index++], function (ok) {
          added += ok ? 1 : 0;
          next();
        });
      }
      summary.textContent = "Uploading " + batch.length + (batch.length === 1 ? " file…" : " files…");
      next();
    });
  }

  // --- the custom field filter: only the conditions the field's type takes --------------

  function setupFieldFilter(field, op) {
    var value = document.getElementById("f-cf-value");
    var to = document.getElementById("f-cf-to");
    var toLabel = document.querySelector(".cf-to-label");

    function operands() {
      var none = op.value === "exists" || op.value === "isnull" || !field.value;
      value.hidden = none;
      var range = op.value === "range" && !none;
      to.hidden = !range;
      toLabel.hidden = !range;
    }

    function narrow() {
      var chosen = field.options[field.selectedIndex];
      var ops = chosen && chosen.value ? chosen.getAttribute("data-ops").split(" ") : null;
      var first = null;
      for (var i = 0; i < op.options.length; i++) {
        var allowed = !ops || ops.indexOf(op.options[i].value) >= 0;
        op.options[i].hidden = !allowed;
        op.options[i].disabled = !allowed;
        if (allowed && first === null) {
          first = op.options[i].value;
        }
      }
      if (op.options[op.selectedIndex] && op.options[op.selectedIndex].disabled) {
        op.value = first;
      }
      op.disabled = !field.value;
      operands();
    }

    field.addEventListener("change", narrow);
    op.addEventListener("change", operands);
    narrow();
  }

  // --- bulk selection ------------------------------------------------------------------------

  function count() {
    var label = document.getElementById("bulk-count");
    if (!label) {
      return;
    }
    var n = document.querySelectorAll("input[data-select-row]:checked").length;
    label.textContent = n ? "(" + n + " selected)" : "";
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("[data-select-all]")) {
      var rows = document.querySelectorAll("input[data-select-row]");
      for (var i = 0; i < rows.length; i++) {
        rows[i].checked = target.checked;
      }
      count();
    } else if (target.matches && target.matches("[data-select-row]")) {
      var all = document.querySelector("[data-select-all]");
      if (all && !target.checked) {
        all.checked = false;
      }
      count();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-upload-form]");
    if (form) {
      setupUpload(form);
    }
    var field = document.getElementById("f-cf-field");
    var op = document.getElementById("f-cf-op");
    if (field && op) {
      setupFieldFilter(field, op);
    }
  });
})();
