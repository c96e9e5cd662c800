/**
 * The baseline of the load benchmark: Fastify with one GET route and nothing else (no plugins,
 * no auth, no database). Its latency under the same schedule is what HTTP, Node and the load
 * generator cost on this machine; the API's figures above it are the API's own.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });

app.get('/bare', async () => ({ status: 'ok', time: Date.now() }));

process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));

const address = await app.listen({ port: 0, host: '127.0.0.1' });
// The bench reads the port from this first line.
process.stdout.write(`${JSON.stringify({ port: new URL(address).port })}\n`);
