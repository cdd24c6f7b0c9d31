// panva's oidc-provider (a certified OpenID Provider) on a free 127.0.0.1 port, for
// restwalk's OAuth client tests. Prints {"issuer": "http://127.0.0.1:PORT"} once it
// listens; ends on SIGTERM or when its standard input closes (the test ended).
import http from 'node:http';

import Provider from 'oidc-provider';

const clients = [
  {
    // A native app (RFC 8252): public, PKCE, a loopback redirect on any port.
    client_id: 'restwalk-cli',
    client_name: 'restwalk',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
    response_types: ['code'],
    redirect_uris: ['http://127.0.0.1/callback'],
  },
  {
    // An application acting for itself.
    client_id: 'reports-service',
    client_secret: 'reports-secret',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: 'api:read',
  },
];

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients,
    scopes: ['openid', 'offline_access', 'api:read'],
    features: {
      devInteractions: { enabled: true }, // its own login and consent pages
      deviceFlow: { enabled: true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
    },
    // A refresh token for every client allowed the grant, offline_access asked or not.
    async issueRefreshToken(ctx, client) {
      return client.grantTypeAllowed('refresh_token');
    },
  });
  server.on('request', provider.callback());
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
