// The API's documentation at /docs: Swagger UI (npm swagger-ui-dist, pinned, served from this
// site's own files under its CSP) reading the server's /openapi.json.
import { wireSkipLink } from "../shared/skip.js";

wireSkipLink(); // its own: Swagger's deep links live in the address's fragment
const { SwaggerUIBundle } = window; // set by swagger-ui-bundle.js, a classic script
SwaggerUIBundle({ url: "/openapi.json", dom_id: "#api", deepLinking: true });
