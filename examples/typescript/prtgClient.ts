// Typed client used by the NOC dashboard to talk to PRTG (API v2, port 1616).
import axios from "axios";

const base = `${process.env.PRTG_URL ?? "https://prtg.example.com:1616"}/api/v2`;
const headers = { Authorization: `Bearer ${process.env.PRTG_API_KEY}` };

export async function channelsOf(sensorId: number): Promise<unknown[]> {
  const params = new URLSearchParams({ filter: `parentid = ${sensorId}`, limit: "3000" });
  const res = await fetch(`${base}/experimental/channels?${params}`, { headers });
  return res.json();
}

export async function channel(id: string): Promise<unknown> {
  return (await axios.get(`${base}/channels/${id}`, { headers })).data;
}

export async function allChannels(): Promise<unknown> {
  return (await axios.get(`${base}/channels`, { headers })).data;
}

export async function taggedDevices(tag: string): Promise<unknown> {
  const res = await axios.get(`${base}/experimental/devices`, {
    headers,
    params: { filter: `tags contains "${tag}"`, includes: "inheritance" },
  });
  return res.data;
}

export async function deleteProbe(id: number): Promise<void> {
  await fetch(`${base}/experimental/probes/${id}`, { method: "DELETE", headers });
}

export async function statusSummary(): Promise<unknown> {
  return (await fetch(`${base}/sensor-status-summary`, { headers })).json();
}

export async function objectTypes(parent: number): Promise<unknown> {
  return (await fetch(`${base}/experimental/objects/${parent}/types`, { headers })).json();
}
