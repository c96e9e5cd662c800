export const config = {
  port: Number(process.env.SIMULATOR_PORT ?? 8090),
  host: process.env.BIND_HOST ?? 'localhost',
  apiUrl: process.env.API_URL ?? 'http://localhost:3000',
  logLevel: process.env.LOG_LEVEL ?? 'info',
};
