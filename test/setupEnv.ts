// Tests never reach the internet: keep Google client libraries from probing the GCE metadata
// server, and make sure no developer's environment leaks into the configuration under test.
process.env.METADATA_SERVER_DETECTION = 'none';
process.env.GOOGLE_CLOUD_PROJECT = process.env.GOOGLE_CLOUD_PROJECT ?? 'demo-test';
for (const key of Object.keys(process.env)) {
  if (/^(SUBGRAPH_URL|RPC_URL)_\d+$/.test(key)) delete process.env[key];
}
