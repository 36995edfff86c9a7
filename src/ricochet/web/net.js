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
 * One room connection with reconnect (backoff 1, 2, 4 … 30 s, hello with the
 * seat token and `since`), version tracking (a gap → sync) and the server
 * clock offset.  Handlers: onWelcome(msg), onEvent(msg), onSync(msg),
 * onChat(msg), onPresence(msg), onMessage(msg) (a game's own), onError(msg, beforeWelcome),
 * onStatus("connecting"|"open"|"reconnecting"|"closed").
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
    this.retry = 0;
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
      const delay = Math.min(30, 2 ** this.retry) * 1000;
      this.retry += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    };
  }

  _hello() {
    const token = this.spectate ? null : seatToken.get(this.roomId);
    this._raw({ type: "hello", protocol: PROTOCOL, name: this.name, seat_token: token, since: this.version, spectate: this.spectate || (!token && !this.name) });
  }

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
      case "welcome":
        this.welcomed = true;
        this.retry = 0;
        this.version = msg.version;
        if (msg.you?.seat_token) seatToken.set(this.roomId, msg.you.seat_token);
        this.h.onStatus?.("open");
        clearInterval(this.pingTimer);
        // A ping now and then keeps the clock offset fresh and notices dead links.
        this.pingTimer = setInterval(() => this._raw({ type: "ping" }), 20000);
        this.h.onWelcome?.(msg);
        if (this.pending.size) {
          // Sent just before the connection dropped: did they arrive?  The caller checks the state.
          const lost = [...this.pending.values()];
          this.pending.clear();
          this.h.onResumed?.(lost);
        }
        break;
      case "event":
        if (this.version !== null && msg.version > this.version + 1) {
          // Missed something: ask for the state and the missed events.
          this._raw({ type: "sync", since: this.version });
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
