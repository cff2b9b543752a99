// sw.js — Parlour's service worker, served from /sw.js so that its scope is the whole
// site. It only shows push notifications (a turn awaits you, your time is nearly out, a
// match ended: docs/protocol.md, "Notifications") and opens the table when one is clicked.
// It caches nothing.

self.addEventListener("push", (event) => {
  let message = { title: "Parlour", body: "", url: "/" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without a readable payload still says something happened.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      data: { url: message.url },
      icon: "/static/img/favicon.svg",
      tag: message.url,
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url || "/";
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    })(),
  );
});
