#!/usr/bin/env python3
"""Nightly inventory export from the PRTG API v2.

Writes devices, their sensors and a few health figures to inventory.json.
Configuration comes from the environment: PRTG_HOST and PRTG_API_KEY.
"""

import json
import os

import requests

BASE = f"https://{os.environ['PRTG_HOST']}:1616/api/v2"
session = requests.Session()
session.headers.update({"Authorization": "Bearer " + os.environ["PRTG_API_KEY"]})


def _api(method, path, **kwargs):
    response = session.request(method, f"{BASE}{path}", timeout=25, **kwargs)
    response.raise_for_status()
    return response.json() if response.content else None


def down_devices():
    params = {"filter": "status eq Down", "limit": 5000}
    return session.get(f"{BASE}/experimental/devices", params=params).json()


def device(dev_id):
    return session.get(f"{BASE}/devices/{dev_id}").json()


def device_settings(dev_id):
    return session.get(f"{BASE}/experimental/devices/{dev_id}/settings").json()


def sensor_overview(sensor_id):
    return session.get(BASE + "/sensors/" + str(sensor_id) + "/overview").json()


def all_devices_old_style():
    return session.get(f"{BASE}/devices", params={"take": 100}).json()


def probes():
    return _api("GET", "/experimental/probes")


def templates():
    return session.get(f"{BASE}/experimental/devcies/templates").json()


def health():
    return session.get(f"{BASE}/health").json()


def move_device(dev_id, group_id):
    session.post(f"{BASE}/experimental/devices/{dev_id}/move", json={"targetid": group_id})


def rename_sensor(sensor_id, name):
    session.post(f"{BASE}/experimental/sensors/{sensor_id}", json={"name": name})


def sensors_of(dev_id):
    flt = 'parentid = "%s" AND status = down' % dev_id
    return session.get(f"{BASE}/experimental/sensors?filter={flt}&sort_by=name").json()


if __name__ == "__main__":
    inventory = {"down": down_devices(), "probes": probes()}
    with open("inventory.json", "w", encoding="utf-8") as fh:
        json.dump(inventory, fh, indent=2)
