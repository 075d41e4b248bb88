<#
.SYNOPSIS
    Mirrors the group tree of a CMDB into PRTG.
.DESCRIPTION
    Reads GET /api/v2/experimental/groups and creates what is missing.
.EXAMPLE
    ./Sync-PrtgGroups.ps1 -BaseUrl https://prtg.example.com:1616/api/v2
#>
param(
    [string]$BaseUrl = "https://prtg.example.com:1616/api/v2",
    [string]$ApiKey = $env:PRTG_API_KEY
)

function Invoke-PRTGRestMethod {
    param([string]$Path, [string]$Method = 'Get', $Body)
    $headers = @{ Authorization = "Bearer $ApiKey" }
    Invoke-RestMethod -Uri ($BaseUrl + $Path) -Method $Method -Headers $headers -Body $Body
}

$groups = Invoke-PRTGRestMethod -Path '/experimental/groups'
$users = Invoke-PRTGRestMethod -Path '/experimental/users'
$toggles = Invoke-PRTGRestMethod -Path '/experimental/feature-toggles'

foreach ($g in $groups) {
    Invoke-PRTGRestMethod -Path "/experimental/groups/$($g.id)/group" -Method Post -Body (@{ name = "Imported" } | ConvertTo-Json)
    $overview = Invoke-RestMethod -Uri ("$BaseUrl/groups/{0}/overview" -f $g.id) -Headers @{ Authorization = "Bearer $ApiKey" }
}

$query = @{ filter = 'type = "sensor" and status = Down'; limit = 100 }
$sensors = Invoke-RestMethod -Uri "$BaseUrl/experimental/sensors" -Body $query -Headers @{ Authorization = "Bearer $ApiKey" }

Invoke-RestMethod -Uri "$BaseUrl/experimental/groups/$GroupId/clone" -Method Post -Headers @{ Authorization = "Bearer $ApiKey" }
Invoke-RestMethod -Uri "$BaseUrl/experimental/devices/$DeviceId" -Method Delete -Headers @{ Authorization = "Bearer $ApiKey" }
