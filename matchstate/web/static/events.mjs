// A new event as this device logs it: its time, a device id, the name set on this device.

/** A random id for an event, made here so a retried send is recorded once (crypto.randomUUID needs https). */
export function deviceId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The name recorded with each event, set on this device (the console's "Your name"). */
export const recorder = () => localStorage.getItem("matchstate:by") || "";

export function newEvent(type, fields, at) {
  const event = {type, at, id: deviceId(), ...fields};
  if (recorder()) event.by = recorder();
  return event;
}
