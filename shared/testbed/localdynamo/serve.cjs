// Runs dynalite as its cli.js does (node -e <this> <dynalite's index.js> <options as JSON>),
// with one change: a client that closes its connection before dynalite answered (a request
// cancelled mid-call) does not stop the engine. dynalite throws from each request's 'error'
// listener, and Node raises that error for such a request; nobody waits for its answer, so
// the error is dropped instead.
'use strict';
const [indexPath, json] = process.argv.slice(1);
const opts = JSON.parse(json);
const server = require(indexPath)(opts);
// Runs after dynalite's own request handler, which added the listener that throws.
server.on('request', (req) => {
  req.removeAllListeners('error');
  req.on('error', () => {});
});
server.listen(opts.port, opts.host, () => {
  console.log('Dynalite listening at: http://%s:%s', opts.host, server.address().port);
});
