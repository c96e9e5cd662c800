// Every image's HEALTHCHECK: GET /healthz of the server in this container, on the port its own
// environment names (so a changed port is still checked). The slim Node image has no curl or
// wget; Node 20's fetch needs nothing more.
//   node healthcheck.mjs <name of the port variable> <port when it is unset>
const [portVariable, fallbackPort] = process.argv.slice(2);
const port = (portVariable && process.env[portVariable]) || fallbackPort;
if (!port) {
  console.error('usage: node healthcheck.mjs <PORT_VARIABLE> <default port>');
  process.exit(2);
}
try {
  const answer = await fetch(`http://127.0.0.1:${port}/healthz`, {
    signal: AbortSignal.timeout(4_000),
  });
  if (!answer.ok) console.error(`/healthz answered ${answer.status}`);
  process.exit(answer.ok ? 0 : 1);
} catch (error) {
  console.error(`/healthz did not answer: ${error.cause?.code ?? error.message}`);
  process.exit(1);
}
