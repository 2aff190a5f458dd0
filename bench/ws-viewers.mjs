// Child process of the websocket fan-out bench: opens N viewers of one strategy, then for every
// trade_update reports when each viewer received it (epoch ms, high resolution) to the parent.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const BATCH = 500;
const now = () => performance.timeOrigin + performance.now();
const receipts = new Map();
const idPattern = /"type":"trade_update","data":\{"id":"([^"]+)"/;
let opened = 0;

function open() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.on('open', () => {
      opened++;
      resolve(socket);
    });
    socket.on('error', reject);
    socket.on('message', (data) => {
      const at = now();
      const match = idPattern.exec(data.toString());
      if (!match) return;
      const id = match[1];
      const times = receipts.get(id) ?? [];
      times.push(at);
      receipts.set(id, times);
      if (times.length === count) {
        receipts.delete(id);
        process.send({ type: 'event', id, times });
      }
    });
  });
}

const sockets = [];
for (let i = 0; i < count; i += BATCH) {
  const batch = await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, open));
  sockets.push(...batch);
}
process.send({ type: 'ready', opened });
process.on('message', (message) => {
  if (message === 'close') {
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  }
});
