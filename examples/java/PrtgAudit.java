import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Audits PRTG accounts and API keys through the API v2. */
public class PrtgAudit {
    private static final String BASE = "https://prtg.example.com:1616/api/v2";
    private final HttpClient http = HttpClient.newHttpClient();
    private final String token = System.getenv("PRTG_API_KEY");

    HttpRequest userGroups() {
        return HttpRequest.newBuilder(URI.create(BASE + "/experimental/usergroups?limit=100"))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    }

    HttpRequest newApiKey(long userId) {
        return HttpRequest.newBuilder()
            .uri(URI.create(String.format("%s/users/%d/api-keys", BASE, userId)))
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    }

    HttpRequest legacyUsers() {
        return HttpRequest.newBuilder(URI.create(BASE + "/users"))
            .header("Authorization", "Bearer " + token)
            .build();
    }

    HttpRequest pauseJob(long id) {
        return HttpRequest.newBuilder()
            .uri(URI.create(BASE + "/experimental/autodiscoveryjobs/" + id))
            .header("Authorization", "Bearer " + token)
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"enabled\": false}"))
            .build();
    }
}
