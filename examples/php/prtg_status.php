<?php
// Status page widget: shows down devices from PRTG (API v2).
require 'vendor/autoload.php';

use GuzzleHttp\Client;

$client = new Client([
    'base_uri' => 'https://prtg.example.com:1616/api/v2/',
    'headers' => ['Authorization' => 'Bearer ' . getenv('PRTG_API_KEY')],
]);

$down = $client->get('experimental/devices', ['query' => ['filter' => 'status = down and name contains HQ', 'limit' => 200]]);

$public = $client->get('settings/public');

$lookup = $client->request('GET', 'settings-lookups/' . $name);

function deleteSensor(string $base, string $token, int $id): void
{
    $ch = curl_init($base . '/experimental/sensors/' . $id);
    curl_setopt($ch, CURLOPT_CUSTOMREQUEST, 'DELETE');
    curl_setopt($ch, CURLOPT_HTTPHEADER, ['Authorization: Bearer ' . $token]);
    curl_exec($ch);
}
