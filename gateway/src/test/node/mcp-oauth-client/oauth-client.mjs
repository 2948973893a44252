// The official MCP TypeScript SDK's OAuth client against a gateway, headless: the SDK discovers
// the authorization server, registers (RFC 7591), builds the PKCE authorization URL and exchanges
// the code; this script plays the person's browser in redirectToAuthorization (sandbox GitHub
// sign-in, then the consent form with a budget). Prints one JSON line of what it saw.
// Usage: node oauth-client.mjs <gateway base URL> <sandbox GitHub login>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, auth } from '@modelcontextprotocol/sdk/client/auth.js';

const [base, login] = process.argv.slice(2);
const REDIRECT = 'http://127.0.0.1:9/ts-sdk-callback';
const cookies = new Map();

/** One request as a browser would send it, keeping cookies, never following redirects. */
async function browse(url, init = {}) {
  const headers = new Headers(init.headers || {});
  if (cookies.size > 0) {
    headers.set('Cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
  }
  const response = await fetch(new URL(url, base), { ...init, headers, redirect: 'manual' });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return response;
}

function location(response) {
  const where = response.headers.get('location');
  if (response.status !== 302 || !where) {
    throw new Error(`expected a redirect, got ${response.status}`);
  }
  return where;
}

/** The person's part: sign in at the sandbox GitHub, consent with a budget; the code sent back. */
async function person(authorizationUrl) {
  let next = location(await browse(authorizationUrl));
  if (next.startsWith('/signin?')) {
    const returnTo = new URL(next, base).searchParams.get('return_to');
    const providerUrl = location(await browse(`/auth/github?return_to=${encodeURIComponent(returnTo)}`));
    const callback = location(await browse(`${providerUrl}&login=${encodeURIComponent(login)}`));
    next = location(await browse(callback));
  }
  const page = await (await browse(next)).text();
  const hidden = (name) => page.match(new RegExp(`name="${name}" value="([^"]+)"`))[1];
  const form = new URLSearchParams({ request: hidden('request'), csrf_token: hidden('csrf_token'),
    decision: 'allow', max_hours: '3' });
  for (const scope of page.matchAll(/name="scope" value="([^"]+)"/g)) {
    form.append('scope', scope[1]);
  }
  const decided = await browse('/oauth/consent', { method: 'POST', body: form,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(base).origin } });
  const back = new URL(location(decided));
  if (back.searchParams.get('error')) {
    throw new Error(`authorization refused: ${back.searchParams.get('error_description')}`);
  }
  return back.searchParams.get('code');
}

class HeadlessProvider {
  client = undefined;
  saved = undefined;
  verifier = undefined;
  code = undefined;
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return { client_name: 'TS SDK headless test', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.client; }
  saveClientInformation(info) { this.client = info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  async redirectToAuthorization(url) { this.code = await person(url.toString()); this.authorizationUrl = url; }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

const provider = new HeadlessProvider();
const serverUrl = new URL('/mcp', base);
const client = new Client({ name: 'ts-sdk-oauth-test', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  throw new Error('the gateway let an unauthenticated client connect');
} catch (error) {
  if (!(error instanceof UnauthorizedError)) {
    throw error;
  }
}
const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
await transport.finishAuth(provider.code);
await client.connect(transport);
const tools = (await client.listTools()).tools.map((tool) => tool.name);
await client.close();

// the SDK refreshes with the rotated refresh token, then lists again with the new access token
const firstAccess = provider.saved.access_token;
const refreshed = await auth(provider, { serverUrl });
const again = new Client({ name: 'ts-sdk-oauth-test', version: '1.0.0' });
await again.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
const toolsAfterRefresh = (await again.listTools()).tools.length;
await again.close();

const asked = provider.authorizationUrl.searchParams;
console.log(JSON.stringify({
  client_id: provider.client.client_id,
  code_challenge_method: asked.get('code_challenge_method'),
  resource: asked.get('resource'),
  scope: asked.get('scope'),
  tools,
  refreshed,
  access_changed: firstAccess !== provider.saved.access_token,
  access_prefix: provider.saved.access_token.slice(0, 8),
  tools_after_refresh: toolsAfterRefresh,
}));
