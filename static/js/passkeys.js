// Passkeys in the portal (the CSP forbids inline scripts): adding one on the Passkeys page and
// signing in with one on the sign-in page. WebAuthn in the browser, against the portal's JSON
// endpoints with the session cookie and the CSRF token of <meta name="csrf-token">. The
// buttons stay hidden where the browser has no WebAuthn; removing a passkey asks first.
(function () {
  "use strict";

  var supported = !!(window.PublicKeyCredential && navigator.credentials);

  function toBytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    base64 += "====".slice((base64.length % 4) || 4);
    var binary = window.atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) {
      bytes[i] = binary.charCodeAt(i);
    }
    return bytes.buffer;
  }

  function toText(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i += 1) {
      binary += String.fromCharCode(bytes[i]);
    }
    return window.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  // POST JSON; resolves with the answer's `data`, rejects with the server's own words.
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "X-CSRFToken": csrfToken()
      },
      body: JSON.stringify(body || {})
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (payload) {
        if (response.ok && payload && payload.success) {
          return payload.data;
        }
        var first = payload && payload.errors && payload.errors[0];
        throw new Error(first ? first.message
          : "The server refused (" + response.status + "). Reload the page and try again.");
      });
    });
  }

  function descriptor(item) {
    return Object.assign({}, item, { id: toBytes(item.id) });
  }

  function creationOptions(json) {
    return Object.assign({}, json, {
      challenge: toBytes(json.challenge),
      user: Object.assign({}, json.user, { id: toBytes(json.user.id) }),
      excludeCredentials: (json.excludeCredentials || []).map(descriptor)
    });
  }

  function requestOptions(json) {
    return Object.assign({}, json, {
      challenge: toBytes(json.challenge),
      allowCredentials: (json.allowCredentials || []).map(descriptor)
    });
  }

  // The JSON py_webauthn reads: the credential's ids, and its response's buffers as text.
  function credentialJSON(credential, response) {
    return {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      response: response
    };
  }

  function registrationJSON(credential) {
    var response = credential.response;
    return credentialJSON(credential, {
      clientDataJSON: toText(response.clientDataJSON),
      attestationObject: toText(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : []
    });
  }

  function assertionJSON(credential) {
    var response = credential.response;
    return credentialJSON(credential, {
      clientDataJSON: toText(response.clientDataJSON),
      authenticatorData: toText(response.authenticatorData),
      signature: toText(response.signature),
      userHandle: response.userHandle ? toText(response.userHandle) : null
    });
  }

  function explain(error) {
    if (error && error.name === "NotAllowedError") {
      return "Cancelled, or no passkey was chosen in time.";
    }
    if (error && error.name === "InvalidStateError") {
      return "This device already holds a passkey for your account.";
    }
    if (error && error.name === "SecurityError") {
      return "This address does not match the site's passkey settings; ask your administrator.";
    }
    return (error && error.message) || "Something went wrong; try again.";
  }

  // Run one ceremony from a button: busy while it runs, the error in the status line.
  function ceremony(button, status, run) {
    button.addEventListener("click", function () {
      button.disabled = true;
      status.textContent = "Follow your browser's prompt…";
      run().then(function (data) {
        status.textContent = "Done.";
        window.location.assign(data.redirect);
      }).catch(function (error) {
        status.textContent = explain(error);
        button.disabled = false;
      });
    });
  }

  function setUpAdding() {
    var panel = document.getElementById("passkey-add");
    var button = document.getElementById("passkey-add-button");
    if (!panel || !button) {
      return;
    }
    var status = document.getElementById("passkey-add-status");
    if (!supported) {
      status.textContent = "This browser cannot create passkeys.";
      return;
    }
    document.getElementById("passkey-add-actions").hidden = false;
    ceremony(button, status, function () {
      var name = document.getElementById("passkey-name").value.trim();
      return post(panel.getAttribute("data-options-url")).then(function (options) {
        return navigator.credentials.create({ publicKey: creationOptions(options.publicKey) })
          .then(function (credential) {
            return post(panel.getAttribute("data-verify-url"), {
              challengeId: options.challengeId,
              credential: registrationJSON(credential),
              name: name || undefined
            });
          });
      });
    });
  }

  function setUpSignIn() {
    var panel = document.getElementById("passkey-signin");
    var button = document.getElementById("passkey-signin-button");
    if (!panel || !button || !supported) {
      return;
    }
    panel.hidden = false;
    var status = document.getElementById("passkey-signin-status");
    ceremony(button, status, function () {
      var field = document.getElementById("workspace");
      var workspace = panel.getAttribute("data-workspace") || (field ? field.value.trim() : "");
      var email = document.getElementById("email").value.trim();
      return post(panel.getAttribute("data-options-url"), {
        workspace: workspace || undefined,
        email: email || undefined
      }).then(function (options) {
        return navigator.credentials.get({ publicKey: requestOptions(options.publicKey) })
          .then(function (credential) {
            return post(panel.getAttribute("data-verify-url"), {
              workspace: workspace || undefined,
              challengeId: options.challengeId,
              credential: assertionJSON(credential),
              next: panel.getAttribute("data-next") || undefined
            });
          });
      });
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    setUpAdding();
    setUpSignIn();
  });
})();
