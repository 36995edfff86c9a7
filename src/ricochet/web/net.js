// REST and the game WebSocket (docs/protocol.md, version 2).

export const PROTOCOL = 2;

/** fetch JSON; throws an Error whose message is the server's error message. */
export async function api(path, { method = "GET", body } = {}) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    const err = new Error(data?.error?.message || `${res.status} ${res.statusText}`);
    err.code = data?.error?.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

// Seat tokens per room: the same browser takes its seat back after a reload or a drop.
const tokenKey = (room) => `ricochet.seat.${room}`;
export const seatToken = {
  get: (room) => localStorage.getItem(tokenKey(room)),
  set: (room, token) => (token ? localStorage.setItem(tokenKey(room), token) : localStorage.removeItem(tokenKey(room))),
};

/**
 * The wait before the next connection attempt, in seconds: the bounded back-off of
 * docs/protocol.md 2.4.  ``retry``: the attempts so far; ``down``: seconds since the connection
 * was lost; ``after``: the server's ``retry_after`` when its last error had one; ``full``: it said it
 * is full or we were too fast (close 1013, 4429).  A dropped connection (a restart, a blip) is
 * tried again after 0.25 s, 0.5 s, then every second for two minutes — a server that is back is
 * found within a second or two — then every 10 s.  Full: at least ``after`` (else 30 s), doubling
 * up to 5 minutes.  Up to 20 % jitter keeps a room's clients from knocking all at once.
 */
export function retryDelay(retry, { down = 0, after = null, full = false } = {}) {
  let base;
  if (full) base = Math.max(after ?? 0, Math.min(300, 30 * 2 ** retry));
  else if (after !== null && retry === 0) base = after;
  else base = down > 120 ? 10 : Math.min(1, 0.25 * 2 ** retry);
  return base * (0.8 + 0.2 * Math.random());
}

/**
 * The state after an `event` message (docs/protocol.md, section 2.3): `before` with the message's
 * `state` merged in, shallow, then each list named in its `extend` rebuilt from the list before
 * (its first `at` items, then `items`: a demonstration's new move, not every move again).
 * Neither argument changes.  `null` when a list to extend is missing or shorter than `at`:
 * something was missed, and only a sync mends it.
 */
export function mergeEventState(before, delta = {}) {
  const { extend, ...rest } = delta;
  const after = { ...before, ...rest };
  const isObject = (o) => o !== null && typeof o === "object" && !Array.isArray(o);
  for (const [place, { at, items }] of Object.entries(extend || {})) {
    const keys = place.split(".");
    const old = keys.reduce((o, k) => (isObject(o) ? o[k] : undefined), before);
    if (!Array.isArray(old) || old.length < at) return null;
    let holder = after;
    for (const k of keys.slice(0, -1)) {
      if (!isObject(holder[k])) return null;
      holder = holder[k] = { ...holder[k] };
    }
    holder[keys.at(-1)] = old.slice(0, at).concat(items);
  }
  return after;
}

/**
 * One room connection with reconnect (retryDelay: at most a second apart for two minutes, the
 * server's retry_after honoured; hello with the seat token and `since`), version tracking (a gap → sync) and the server
 * clock offset.  Handlers: onWelcome(msg), onEvent(msg), onSync(msg),
 * onChat(msg), onPresence(msg), onMessage(msg) (a game's own), onError(msg, beforeWelcome),
 * onStatus("connecting"|"open"|"reconnecting"|"closed"), onResumed(actions): after a real
 * reconnect, the actions sent before the drop that were neither acknowledged nor refused.
 */
export class RoomSocket {
  constructor(roomId, { name = null, spectate = false } = {}, handlers = {}) {
    this.roomId = roomId;
    this.name = name;
    this.spectate = spectate;
    this.h = handlers;
    this.version = null;
    this.skew = 0;          // server_time - local time, seconds
    this.ws = null;
    this.welcomed = false;
    this.everWelcomed = false;  // welcomed once: a later welcome is a reconnect
    this.retry = 0;
    this.downSince = null;      // when the connection was lost (ms), while it is
    this.retryAfter = null;     // the server's retry_after with its last error (seconds)
    this.stopped = false;
    this.refs = 0;
    this.pingTimer = null;
    this.pending = new Map();  // ref → {type, fields}: sent, neither acknowledged nor refused yet
  }

  /** Server time now, in seconds (local clock corrected by the last known offset). */
  now() { return Date.now() / 1000 + this.skew; }

  connect() {
    this.stopped = false;
    this.welcomed = false;
    this.h.onStatus?.(this.retry ? "reconnecting" : "connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.roomId)}`);
    this.ws = ws;
    ws.onopen = () => this._hello();
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this._receive(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.welcomed = false;
      // 4404 no room, 4400 protocol: reconnecting cannot help; 4403: the host removed us.
      if (this.stopped || e.code === 4404 || e.code === 4400 || e.code === 4403) { this.h.onStatus?.("closed"); return; }
      this.h.onStatus?.("reconnecting");
      this._schedule(e.code === 1013 || e.code === 4429);
    };
  }

  _schedule(full = false) {
    clearTimeout(this.retryTimer);
    this.downSince ??= Date.now();
    const delay = retryDelay(this.retry, { down: (Date.now() - this.downSince) / 1000, after: this.retryAfter, full });
    this.retryAfter = null;
    this.retry += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay * 1000);
  }

  /** Try again now (the browser says it is back online, or the page is shown again). */
  wake() {
    if (this.stopped || this.ws?.readyState === WebSocket.OPEN || this.ws?.readyState === WebSocket.CONNECTING) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  _hello() {
    const token = this.spectate ? null : seatToken.get(this.roomId);
    this._raw({ type: "hello", protocol: PROTOCOL, name: this.name, seat_token: token, since: this.version, spectate: this.spectate || (!token && !this.name) });
  }

  /** Ask for the whole state again (and the events since our version): after a gap in versions, or
   * a state that cannot take an event message (`mergeEventState`). */
  resync() { this._raw({ type: "sync", since: this.version }); }

  _raw(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** True while the room's socket is open and welcomed: actions can be sent. */
  get online() { return this.welcomed && this.ws?.readyState === WebSocket.OPEN; }

  /**
   * Send an action; returns its ref (echoed in an error or ack), or null when
   * there is no connection: then nothing was sent (the caller says so).
   */
  send(type, fields = {}) {
    if (!this.online) return null;
    const ref = ++this.refs;
    this.pending.set(ref, { type, fields });
    this._raw({ type, ...fields, ref });
    return ref;
  }

  _clock(msg) {
    if (typeof msg.server_time === "number") this.skew = msg.server_time - Date.now() / 1000;
  }

  _receive(msg) {
    this._clock(msg);
    switch (msg.type) {
      case "welcome": {
        // Only a reconnect can have lost something: what the page sends as it opens (a host's
        // bots and start) is sent after this welcome, and is not in doubt.
        const lost = this.everWelcomed ? [...this.pending.values()] : [];
        this.pending.clear();
        this.welcomed = true;
        this.everWelcomed = true;
        this.retry = 0;
        this.downSince = null;
        this.version = msg.version;
        if (msg.you?.seat_token) seatToken.set(this.roomId, msg.you.seat_token);
        this.h.onStatus?.("open");
        clearInterval(this.pingTimer);
        // A ping now and then keeps the clock offset fresh and notices dead links.
        this.pingTimer = setInterval(() => this._raw({ type: "ping" }), 20000);
        this.h.onWelcome?.(msg);
        // Sent just before the connection dropped: did they arrive?  The caller checks the state.
        if (lost.length) this.h.onResumed?.(lost);
        break;
      }
      case "event":
        if (this.version !== null && msg.version > this.version + 1) {
          this.resync();  // missed something: the state and the missed events
          return;
        }
        if (this.version !== null && msg.version <= this.version) return;  // already seen
        this.version = msg.version;
        this.h.onEvent?.(msg);
        break;
      case "sync":
        this.version = msg.version;
        this.h.onSync?.(msg);
        break;
      case "chat": this.h.onChat?.(msg); break;
      case "presence": this.h.onPresence?.(msg); break;
      case "ack": this.pending.delete(msg.ref); this.h.onAck?.(msg); break;
      case "pong": break;
      case "error": this._error(msg); break;
      default: this.h.onMessage?.(msg); break;  // a game's own message (a query's answer)
    }
  }

  _error(msg) {
    if (typeof msg.retry_after === "number" && msg.retry_after >= 0) this.retryAfter = Math.min(msg.retry_after, 300);
    if (msg.ref !== null && msg.ref !== undefined) this.pending.delete(msg.ref);
    const before = !this.welcomed;
    if (before && msg.code === "bad_token") {
      // The seat is gone (e.g. a new database): forget it and join afresh.
      seatToken.set(this.roomId, null);
      this._raw({ type: "hello", protocol: PROTOCOL, name: this.name, seat_token: null, since: this.version, spectate: this.spectate || !this.name });
    } else if (before && (msg.code === "join" || msg.code === "full")) {
      // Cannot take a seat (name taken, game over, full): watch instead.
      this.spectate = true;
      this._raw({ type: "hello", protocol: PROTOCOL, name: this.name, seat_token: null, since: this.version, spectate: true });
    }
    this.h.onError?.(msg, before);
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close(1000);
  }
}
