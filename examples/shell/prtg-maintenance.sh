#!/usr/bin/env bash
# Weekly maintenance against the PRTG API v2: clears old discovery jobs,
# pauses flapping sensors and reports alarms.
set -euo pipefail

PRTG="https://prtg.example.com:1616/api/v2"

# Log in once; the token is used for every call below.
TOKEN=$(curl -s -X POST "$PRTG/session" \
  -H 'Content-Type: application/json' \
  -d '{"username": "prtgadmin", "password": "Spring2024!"}' | jq -r .token)

curl -s -H "Authorization: Bearer $TOKEN" "$PRTG/experimental/autodiscoveryjobs/history" > history.json

for job in $(jq -r '.[].id' history.json); do
  curl -s -X DELETE -H "Authorization: Bearer $TOKEN" "$PRTG/experimental/autodiscoveryjobs/$job"
done

curl -s -X PATCH -H "Authorization: $PRTG_API_KEY" \
  -d '{"interval": "300"}' \
  "$PRTG/experimental/sensors/${SENSOR_ID}"

curl -s -H "Authorization: Bearer $TOKEN" "$PRTG/experimental/sensors?filter=parentid%20%3D%20${DEVICE_ID}"

curl -s -H "Authorization: Bearer $TOKEN" "$PRTG/sensors/alarms" | jq length

wget -q --method=DELETE --header="Authorization: Bearer $TOKEN" "$PRTG/experimental/devices/${DEVICE_ID}/metascan"

http GET "$PRTG/experimental/channels" "Authorization:Bearer $TOKEN" sort==name limit==5000
