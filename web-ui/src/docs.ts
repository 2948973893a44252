// API documentation page (docs.html): Swagger UI bundled from npm, no CDN,
// no inline script, so it runs under the gateway's strict CSP.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import './docs.css';

const SPEC_URL = '/api/v1/openapi.yaml';

const container = document.getElementById('swagger-ui');
if (container) {
  SwaggerUIBundle({
    url: SPEC_URL,
    domNode: container,
    // Never send the spec to the public validator service.
    validatorUrl: null,
    // Ignore ?url=/?configUrl= in the address bar: only our own spec is shown.
    queryConfigEnabled: false,
    deepLinking: true,
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    displayRequestDuration: true,
    withCredentials: true,
  });
}
