// Boots the vendored Redoc (static/vendor/redoc/) without any inline script,
// so the page works under `script-src 'self'`.
//
// Usage in a template:
//   <div id="api-reference" data-spec-url="/api/v1/openapi.json"></div>
//   <script type="module" src="/static/js/api-docs.js"></script>
//
// redoc.standalone.js (3.x) is an ES module (`export {init, ...}`), so this
// file must be loaded with type="module"; the import below is resolved
// relative to this file's URL (…/static/js/ -> …/static/vendor/redoc/).
import { init } from '../vendor/redoc/redoc.standalone.js';

const host = document.getElementById('api-reference');

if (host) {
  const specUrl = host.dataset.specUrl;
  if (!specUrl) {
    host.textContent = 'API reference unavailable: missing data-spec-url.';
  } else {
    // Redoc copies every attribute of its mount element into its options
    // (id, class, data-* ...), so mount into a bare child element instead
    // of the host itself.
    const mount = document.createElement('div');
    host.replaceChildren(mount);
    init(
      new URL(specUrl, document.baseURI).href,
      {
        // Redoc 3 sends OpenTelemetry usage traces to otel.cloud.redocly.com
        // unless this is set (CSP `connect-src 'self'` blocks them too).
        disableTelemetry: true,
      },
      mount,
    );
  }
}
