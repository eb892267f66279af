// Boots the vendored Swagger UI (static/vendor/swagger-ui/) without any inline script,
// so the page works under `script-src 'self'`.
//
// Usage in a template:
//   <link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
//   <div id="api-reference" data-spec-url="/api/v1/openapi.json"
//        data-oauth-redirect-url="/static/vendor/swagger-ui/oauth2-redirect.html"></div>
//   <script src="/static/vendor/swagger-ui/swagger-ui-bundle.js" defer></script>
//   <script src="/static/js/api-docs.js" defer></script>
(function () {
  'use strict';

  function boot() {
    var host = document.getElementById('api-reference');
    if (!host) {
      return;
    }
    var specUrl = host.dataset.specUrl;
    if (!specUrl || typeof window.SwaggerUIBundle !== 'function') {
      host.textContent = 'API reference unavailable: see /api/v1/openapi.json.';
      return;
    }
    var ui = window.SwaggerUIBundle({
      url: new URL(specUrl, document.baseURI).href,
      domNode: host,
      deepLinking: true,
      // The default validator badge calls validator.swagger.io: nothing leaves this origin.
      validatorUrl: null,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      // The names generated clients use (uploadDocument, listDocuments, ...), beside each path.
      displayOperationId: true,
      // Authorize (an API key and the tenant), then Try it out: uploads send the file part.
      tryItOutEnabled: false,
      persistAuthorization: false,
      // Authorize with OAuth: the popup ends at this origin's copy of the redirect page,
      // the redirect URI the reader's OAuth app registers (docs/oauth.md).
      oauth2RedirectUrl: new URL(host.dataset.oauthRedirectUrl, document.baseURI).href,
    });
    if (typeof ui.initOAuth === 'function') {
      // A public app: PKCE (S256) instead of a secret. `/docs?client_id=oac_…` fills the id in.
      ui.initOAuth({
        clientId: new URLSearchParams(window.location.search).get('client_id') || '',
        appName: 'API reference',
        scopeSeparator: ' ',
        usePkceWithAuthorizationCodeGrant: true,
      });
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', boot);
  } else {
    boot();
  }
})();
