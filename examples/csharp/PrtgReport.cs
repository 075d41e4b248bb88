using System;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading.Tasks;
using RestSharp;

// Monthly availability report for PRTG (API v2).
public sealed class PrtgReport
{
    private readonly HttpClient _http;

    public PrtgReport(string host, string apiKey)
    {
        _http = new HttpClient { BaseAddress = new Uri($"https://{host}:1616/api/v2/") };
        _http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
    }

    public Task<string> Objects() =>
        _http.GetStringAsync("experimental/objects?filter=type%20%3D%20device%20and%20basic.tags%20contains%20%22core%22");

    public Task<HttpResponseMessage> RemoveProbe(int id) => _http.DeleteAsync($"experimental/probes/{id}");

    public Task<string> LookupDefinitions() => _http.GetStringAsync("lookup-definitions");

    public Task<string> Probe(int id) => _http.GetStringAsync($"probes/{id}");

    public RestResponse CloneGroup(RestClient client, int id)
    {
        var request = new RestRequest($"/group/{id}/clone", Method.Get);
        return client.Execute(request);
    }

    public Task<HttpResponseMessage> Rename(int id, HttpContent body)
    {
        var message = new HttpRequestMessage(HttpMethod.Put, $"experimental/devices/{id}") { Content = body };
        return _http.SendAsync(message);
    }
}
