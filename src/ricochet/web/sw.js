// The site's service worker: the pages work offline once loaded (the trainer above all: its
// puzzles are solved in the browser and attempts queued until the network is back).
// The server prepends VERSION (a hash of the web files) and ASSETS (every file under /static/)
// when it serves this file at /sw.js.
//
// Network first, always: an online visit gets the server's latest files and answers (and
// refreshes the cache); the cache answers only when the network cannot.  Only what the pages need
// to open is cached: the pages (one shell for every route), the static files, and the trainer's
// daily puzzle and profile.  Everything else — room state, attempts, rated puzzles, the
// WebSocket — goes to the network untouched.

/* global VERSION, ASSETS */
const CACHE = `ricochet-${VERSION}`;
const SHELL = "/";
const CACHED_API = ["/api/puzzles/daily", "/api/trainer/me"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([SHELL, ...ASSETS])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("ricochet-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const page = request.mode === "navigate";
  if (!page && !url.pathname.startsWith("/static/") && !CACHED_API.includes(url.pathname)) return;
  const key = page ? SHELL : request;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  }).catch(async () => {
    const cached = await caches.match(key);
    if (cached) return cached;
    throw new TypeError("offline, and not cached");
  }));
});
