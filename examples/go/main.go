// Command prtgexport dumps sensors and their time series from the PRTG API v2.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

type Client struct {
	baseURL string
	apiKey  string
	http    *http.Client
}

func (c *Client) get(ctx context.Context, endpoint string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+endpoint, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	return c.http.Do(req)
}

func FetchAll(ctx context.Context, c *Client, endpoint string) ([]map[string]any, error) {
	resp, err := c.get(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

func (c *Client) Series(ctx context.Context, id int, kind string) (*http.Response, error) {
	return c.get(ctx, fmt.Sprintf("/experimental/timeseries/%d/%s", id, kind))
}

func (c *Client) RawSeries(ctx context.Context, id int) (*http.Response, error) {
	return c.get(ctx, fmt.Sprintf("/experimental/timeseries/%d", id))
}

func (c *Client) License(ctx context.Context) (*http.Response, error) {
	return c.get(ctx, "/experimental/license")
}

func (c *Client) Sensors(ctx context.Context) (*http.Response, error) {
	q := url.Values{}
	q.Set("filter", "type = sensor OR type = channel")
	q.Set("sort", "-name")
	return c.get(ctx, "/experimental/sensors?"+q.Encode())
}

func (c *Client) StartJob(ctx context.Context, id int) error {
	req, err := http.NewRequest("POST", fmt.Sprintf("%s/experimental/autodiscoveryjobs/%d/start", c.baseURL, id), nil)
	if err != nil {
		return err
	}
	_, err = c.http.Do(req)
	return err
}

func main() {
	c := &Client{baseURL: "https://" + os.Getenv("PRTG_HOST") + ":1616/api/v2", apiKey: os.Getenv("PRTG_API_KEY"), http: http.DefaultClient}
	sensors, err := FetchAll(context.Background(), c, "/experimental/sensors")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(len(sensors))
}
