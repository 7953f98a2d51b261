// What an operator attaches to a server (forked by bench/observed.mjs): a scraper polling /v1/metrics
// every second in Prometheus's text format (both sides' series: /v1/sys/metrics answers the same), as Prometheus would with a 1 s scrape interval, and
// an event-stream consumer of the given topics that parses every frame, as a tool reacting to events does.
// Answers what each saw, so a round with observers is known to have had them.
import http from 'node:http';
import { serveParent } from './lib.mjs';

const url = process.argv[2];
const SCRAPE_MS = 1000;
let session;

function scrapeOnce(token, path) {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, url), { headers: { 'x-svc-token': token } }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${path}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

/** Reads the event stream until `stop`: counts the events and bytes, and the last index seen. */
function consume(token, topics, seen, signal) {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(`/v1/event/stream?${topics.map((t) => `topic=${encodeURIComponent(t)}`).join('&')}&namespace=*`, url), { headers: { 'x-svc-token': token }, signal }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /v1/event/stream: HTTP ${res.statusCode}`));
      let rest = '';
      res.on('data', (chunk) => {
        seen.streamBytes += chunk.length;
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop();
        for (const line of lines) {
          if (!line || line === '{}') continue;
          const frame = JSON.parse(line);
          seen.events += frame.Events?.length ?? 0;
          seen.lastIndex = frame.Index;
        }
      });
      res.on('end', resolve);
      res.on('error', () => resolve());
    });
    req.on('error', (err) => (signal.aborted ? resolve() : reject(err)));
  });
}

serveParent({
  start({ token, topics, scrape = true }) {
    const stop = new AbortController();
    const seen = { scrapes: 0, scrapeBytes: 0, events: 0, streamBytes: 0, lastIndex: 0, errors: [] };
    const scraping = (async () => {
      while (scrape && !stop.signal.aborted) {
        try {
          seen.scrapeBytes += await scrapeOnce(token, '/v1/metrics?format=prometheus');
          seen.scrapes++;
        } catch (err) {
          seen.errors.push(err.message);
        }
        await new Promise((r) => setTimeout(r, SCRAPE_MS));
      }
    })();
    const consuming = (topics.length === 0 ? Promise.resolve() : consume(token, topics, seen, stop.signal)).catch((err) => seen.errors.push(err.message));
    session = { stop, seen, done: Promise.all([scraping, consuming]) };
    return true;
  },
  async stop() {
    session.stop.abort();
    await session.done;
    return session.seen;
  },
});
