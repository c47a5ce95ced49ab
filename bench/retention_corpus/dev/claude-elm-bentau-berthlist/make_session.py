# ruff: noqa: E501
"""Writes session.jsonl (+ subagents/): a Claude Code session written by hand for the heldout7a split.

A Vietnamese-flavoured English front-end developer has Claude add a berth-booking list page to
`bentau-web`, an Elm 0.19 front end for a port's existing JSON API (owned by another team). A Task
sub-agent maps the API's JSON shape from the backend repo. elm make, elm-test, elm-review,
elm-format. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/linh/work/bentau-web"
s = ClaudeSession(CWD, "2026-09-22T02:05:00", seed="elm-bentau-berthlist", branch="feat/berth-list")

ELMJSON = "elm.json"
MAIN = "src/Main.elm"
ROUTE = "src/Route.elm"
API = "src/Api.elm"
BERTH = "src/Page/Berths.elm"
TIME = "src/TimeFmt.elm"
T_DEC = "tests/BerthDecoderTest.elm"
T_TIME = "tests/TimeFmtTest.elm"
REVIEW = "review/src/ReviewConfig.elm"
PKG = "package.json"

s.files.update({
    ELMJSON: """{
    "type": "application",
    "source-directories": [
        "src"
    ],
    "elm-version": "0.19.1",
    "dependencies": {
        "direct": {
            "elm/browser": "1.0.2",
            "elm/core": "1.0.5",
            "elm/html": "1.0.0",
            "elm/http": "2.0.0",
            "elm/json": "1.1.3",
            "elm/time": "1.0.0",
            "elm/url": "1.0.0"
        },
        "indirect": {
            "elm/bytes": "1.0.8",
            "elm/file": "1.0.5",
            "elm/virtual-dom": "1.0.3"
        }
    },
    "test-dependencies": {
        "direct": {
            "elm-explorations/test": "2.2.0"
        },
        "indirect": {
            "elm/random": "1.0.0"
        }
    }
}
""",
    PKG: """{
  "name": "bentau-web",
  "private": true,
  "scripts": {
    "build": "elm make src/Main.elm --optimize --output=public/app.js",
    "test": "elm-test",
    "review": "elm-review",
    "format:check": "elm-format --validate src tests"
  },
  "devDependencies": {
    "elm": "0.19.1-6",
    "elm-format": "0.8.7",
    "elm-review": "2.12.0",
    "elm-test": "0.19.1-revision12"
  }
}
""",
    ROUTE: """module Route exposing (Route(..), fromUrl, toString)

import Url exposing (Url)
import Url.Parser as P exposing ((</>))


type Route
    = Home
    | Vessels
    | NotFound


fromUrl : Url -> Route
fromUrl url =
    P.parse parser url |> Maybe.withDefault NotFound


parser : P.Parser (Route -> a) a
parser =
    P.oneOf
        [ P.map Home P.top
        , P.map Vessels (P.s "vessels")
        ]


toString : Route -> String
toString route =
    case route of
        Home ->
            "/"

        Vessels ->
            "/vessels"

        NotFound ->
            "/404"
""",
    API: """module Api exposing (baseUrl, get)

import Http
import Json.Decode exposing (Decoder)


baseUrl : String
baseUrl =
    "/api/v2"


get : String -> Decoder a -> (Result Http.Error a -> msg) -> Cmd msg
get path decoder toMsg =
    Http.get { url = baseUrl ++ path, expect = Http.expectJson toMsg decoder }
""",
    MAIN: """module Main exposing (main)

import Browser
import Browser.Navigation as Nav
import Html exposing (Html, a, div, nav, text)
import Html.Attributes exposing (href)
import Route exposing (Route)
import Url exposing (Url)


type alias Model =
    { key : Nav.Key
    , route : Route
    }


type Msg
    = UrlRequested Browser.UrlRequest
    | UrlChanged Url


main : Program () Model Msg
main =
    Browser.application
        { init = \\_ url key -> ( { key = key, route = Route.fromUrl url }, Cmd.none )
        , update = update
        , view = view
        , subscriptions = \\_ -> Sub.none
        , onUrlRequest = UrlRequested
        , onUrlChange = UrlChanged
        }


update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        UrlRequested (Browser.Internal url) ->
            ( model, Nav.pushUrl model.key (Url.toString url) )

        UrlRequested (Browser.External href) ->
            ( model, Nav.load href )

        UrlChanged url ->
            ( { model | route = Route.fromUrl url }, Cmd.none )


view : Model -> Browser.Document Msg
view model =
    { title = "Bến Tàu"
    , body =
        [ nav [] [ a [ href "/" ] [ text "Home" ], a [ href "/vessels" ] [ text "Vessels" ] ]
        , div [] [ text (Route.toString model.route) ]
        ]
    }
""",
    REVIEW: """module ReviewConfig exposing (config)

import NoDebug.Log
import NoUnused.Variables
import NoUnused.Exposing
import NoMissingTypeAnnotation
import Review.Rule exposing (Rule)


config : List Rule
config =
    [ NoDebug.Log.rule
    , NoUnused.Variables.rule
    , NoUnused.Exposing.rule
    , NoMissingTypeAnnotation.rule
    ]
""",
})

AG = "a7c31e90d2b4f615"

# ------------------------------------------------------------------ turn 1
s.user("""Hi, I need your help for bentau-web. We must add a page "Berths" listing the berth bookings from the existing API (backend repo is at ../bentau-api, you can read it but not change). Show vessel name, berth, ETA, status, and filter by status.
NB: the API belongs to backend team, we do not change any endpoint or ask new field.
NB: no new package in elm.json, our review for packages is very slow (2-3 weeks).
NB: time from API is UTC, we display in Vietnam time (UTC+7).
Please look first, then tell me the plan.""", pause=0)
s.bash("ls; git log --oneline -5; cat package.json", """elm.json
package.json
public
review
src
tests
a3e91c2 vessels: list page skeleton
7fd02b8 api: base url /api/v2
41c6e55 review: add NoMissingTypeAnnotation
e08b7a1 routing with Url.Parser
9c2d310 init elm 0.19.1 app
""" + s.files[PKG], description="Look at the repo")
s.reads([ELMJSON, MAIN, ROUTE, API])
s.read(REVIEW)
s.bash("ls src src/Page tests 2>&1; npx elm --version; npx elm-format --help | head -1", """src:
Api.elm
Main.elm
Route.elm

ls: cannot access 'src/Page': No such file or directory
tests:
Example.elm
0.19.1
elm-format 0.8.7""", description="List sources and tool versions")
PROMPT = """In /home/linh/work/bentau-api (read only, do not modify anything) find out exactly what GET /api/v2/berth-bookings returns: the JSON shape of a booking (field names, types, which are nullable), the possible values of status, how paging/filtering works (query parameters, response envelope), the timestamp format and timezone, and any example fixtures. Report concisely with file references."""
(tid,) = s.assistant("I'll have a sub-agent map the berth-bookings API from the backend repo while I look at the front end.", calls=[("Task", {"description": "Map berth-bookings API JSON", "prompt": PROMPT, "subagent_type": "Explore"})])
s.user(PROMPT, agent=AG, pause=1)
s.bash("cd /home/linh/work/bentau-api && ls && grep -rn 'berth-bookings' --include=*.py --include=*.yaml . | head", """README.md
app
docs
fixtures
tests
./docs/openapi.yaml:212:  /api/v2/berth-bookings:
./app/routes/bookings.py:18:@router.get("/api/v2/berth-bookings")""", agent=AG)
s.bash("sed -n 212,300p /home/linh/work/bentau-api/docs/openapi.yaml", """  /api/v2/berth-bookings:
    get:
      parameters:
        - {name: status, in: query, schema: {type: string}, description: "comma separated"}
        - {name: page, in: query, schema: {type: integer, default: 1}}
        - {name: per_page, in: query, schema: {type: integer, default: 50, maximum: 200}}
      responses:
        "200":
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: {type: array, items: {$ref: "#/components/schemas/BerthBooking"}}
                  page: {type: integer}
                  total: {type: integer}
    ...
    BerthBooking:
      required: [id, vessel, status, eta]
      properties:
        id: {type: string, example: "bk_01HV7Q2"}
        vessel: {$ref: "#/components/schemas/VesselRef"}
        berth_no: {type: string, nullable: true, example: "K3"}
        eta: {type: string, format: date-time, example: "2026-09-23T21:30:00Z"}
        etd: {type: string, format: date-time, nullable: true}
        status: {type: string, enum: [requested, confirmed, berthed, departed, cancelled]}
        loa_m: {type: number, example: 182.5}""", agent=AG)
s.bash("sed -n 1,60p /home/linh/work/bentau-api/app/routes/bookings.py; ls /home/linh/work/bentau-api/fixtures", """from fastapi import APIRouter, Query
...
@router.get("/api/v2/berth-bookings")
def list_bookings(status: str | None = None, page: int = 1, per_page: int = Query(50, le=200)):
    q = Booking.query()
    if status:
        q = q.filter(Booking.status.in_(status.split(",")))
    total = q.count()
    rows = q.order_by(Booking.eta).offset((page - 1) * per_page).limit(per_page).all()
    return {"items": [b.to_json() for b in rows], "page": page, "total": total}
berth_bookings_page1.json
vessels.json""", agent=AG)
s.bash("head -c 700 /home/linh/work/bentau-api/fixtures/berth_bookings_page1.json; grep -n 'def to_json' -A 12 /home/linh/work/bentau-api/app/models/booking.py", """{"items": [{"id": "bk_01HV7Q2", "vessel": {"imo": "9387421", "name": "HAI PHONG STAR"}, "berth_no": "K3", "eta": "2026-09-23T21:30:00Z", "etd": null, "status": "confirmed", "loa_m": 182.5}, {"id": "bk_01HV7Q9", "vessel": {"imo": "9712055", "name": "MEKONG PIONEER", "flag": "VN"}, "berth_no": null, "eta": "2026-09-24T03:00:00Z", "etd": null, "status": "requested", "loa_m": 96}], "page": 1, "total": 137}
    def to_json(self):
        return {
            "id": self.public_id,
            "vessel": {"imo": self.vessel.imo, "name": self.vessel.name, **({"flag": self.vessel.flag} if self.vessel.flag else {})},
            "berth_no": self.berth_no,
            "eta": self.eta.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "etd": self.etd.strftime("%Y-%m-%dT%H:%M:%SZ") if self.etd else None,
            "status": self.status,
            "loa_m": self.loa_m,
        }""", agent=AG)
REPORT = """GET /api/v2/berth-bookings — findings (bentau-api, nothing modified)

Envelope (app/routes/bookings.py:18-27, docs/openapi.yaml:212-228):
  {"items": [BerthBooking...], "page": <int>, "total": <int>}
  No "per_page" or "next" in the response; compute pages from total.

Query parameters:
  status    comma-separated, e.g. ?status=requested,confirmed (SQL IN filter)
  page      default 1
  per_page  default 50, max 200 (FastAPI rejects >200 with 422)
  Ordering is fixed: by eta ascending. No sort parameter.

BerthBooking (openapi.yaml:231-240, models/booking.py to_json):
  id        string, e.g. "bk_01HV7Q2"            required
  vessel    object {imo: string, name: string, flag?: string}
            flag is OMITTED (key absent, not null) when unknown
  berth_no  string or null (null until a berth is assigned)
  eta       string "YYYY-MM-DDTHH:MM:SSZ", always UTC, required
  etd       same format or null
  status    one of requested | confirmed | berthed | departed | cancelled
  loa_m     number; JSON may be an integer (96) or a float (182.5)

Gotchas:
  - imo is a STRING ("9387421"), not a number.
  - loa_m as 96 decodes fine with Json.Decode.float.
  - timestamps have no milliseconds and always end with Z; the API never
    sends an offset.
  - fixture fixtures/berth_bookings_page1.json has 2 items, total 137.

Files: docs/openapi.yaml, app/routes/bookings.py, app/models/booking.py,
fixtures/berth_bookings_page1.json"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": PROMPT, "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 48210, "totalTokens": 21877, "totalToolUseCount": 4})
s.assistant("""Plan:

1. `src/Page/Berths.elm`: model, `init`, `update`, `view`; fetch `GET /api/v2/berth-bookings?per_page=200&page=N`.
2. Decoder in the page module: `vessel.flag` optional (`Decode.maybe (field "flag" string)`), `berth_no` and `etd` nullable, `status` decoded into a custom type `Status = Requested | Confirmed | Berthed | Departed | Cancelled` (unknown value → decode failure, so we notice if backend adds one).
3. Time: no new packages means no `justinmimbs/timezone-data`. Vietnam has no DST, so a fixed `Time.customZone (7 * 60) []` is exact. I'll parse `YYYY-MM-DDTHH:MM:SSZ` by hand in `src/TimeFmt.elm` (elm/time has no ISO parser, and `rtfeldman/elm-iso8601-date-strings` would be a new package).
4. Status filter: client-side on the loaded list — checkboxes, no extra requests.
5. Route `/berths` + nav link; tests for the decoder (with the fixture JSON) and TimeFmt.

Question: the API has 137 bookings in the fixture env; with per_page=200 one request is enough today. OK to load all and filter in the browser?""")

# ------------------------------------------------------------------ turn 2
s.user("""OK plan is good. For filter: yes filter in browser, simple.
NB: date show like 23/09 04:30 (dd/mm HH:MM), not ISO, the port staff read this format.""")
s.write(TIME, """module TimeFmt exposing (parseUtc, vietnam, format)

import Time exposing (Month(..), Posix)


{-| Vietnam has no DST, so a fixed +07:00 zone is exact. -}
vietnam : Time.Zone
vietnam =
    Time.customZone (7 * 60) []


{-| Parse the API's "YYYY-MM-DDTHH:MM:SSZ" (always UTC, no millis). -}
parseUtc : String -> Maybe Posix
parseUtc s =
    case ( String.length s, String.endsWith "Z" s ) of
        ( 20, True ) ->
            Maybe.map5
                (\\y mo d h mi ->
                    let
                        sec =
                            String.slice 17 19 s |> String.toInt |> Maybe.withDefault 0
                    in
                    Time.millisToPosix (1000 * (daysFromCivil y mo d * 86400 + h * 3600 + mi * 60 + sec))
                )
                (String.toInt (String.slice 0 4 s))
                (String.toInt (String.slice 5 7 s))
                (String.toInt (String.slice 8 10 s))
                (String.toInt (String.slice 11 13 s))
                (String.toInt (String.slice 14 16 s))

        _ ->
            Nothing


{-| Days since 1970-01-01 (Howard Hinnant's days_from_civil). -}
daysFromCivil : Int -> Int -> Int -> Int
daysFromCivil y0 m d =
    let
        y =
            if m <= 2 then
                y0 - 1

            else
                y0

        era =
            (if y >= 0 then
                y

             else
                y - 399
            )
                // 400

        yoe =
            y - era * 400

        mp =
            modBy 12 (m + 9)

        doy =
            (153 * mp + 2) // 5 + d - 1

        doe =
            yoe * 365 + yoe // 4 - yoe // 100 + doy
    in
    era * 146097 + doe - 719468


{-| "dd/mm HH:MM" in the given zone. -}
format : Time.Zone -> Posix -> String
format zone t =
    pad2 (Time.toDay zone t)
        ++ "/"
        ++ pad2 (monthNumber (Time.toMonth zone t))
        ++ " "
        ++ pad2 (Time.toHour zone t)
        ++ ":"
        ++ pad2 (Time.toMinute zone t)


pad2 : Int -> String
pad2 n =
    String.padLeft 2 '0' (String.fromInt n)


monthNumber : Month -> Int
monthNumber m =
    case m of
        Jan -> 1
        Feb -> 2
        Mar -> 3
        Apr -> 4
        May -> 5
        Jun -> 6
        Jul -> 7
        Aug -> 8
        Sep -> 9
        Oct -> 10
        Nov -> 11
        Dec -> 12
""")
s.write(T_TIME, """module TimeFmtTest exposing (suite)

import Expect
import Test exposing (Test, describe, test)
import Time
import TimeFmt


suite : Test
suite =
    describe "TimeFmt"
        [ test "API eta 21:30Z shows next day 04:30 in Vietnam" <|
            \\_ ->
                TimeFmt.parseUtc "2026-09-23T21:30:00Z"
                    |> Maybe.map (TimeFmt.format TimeFmt.vietnam)
                    |> Expect.equal (Just "24/09 04:30")
        , test "leap day" <|
            \\_ ->
                TimeFmt.parseUtc "2028-02-29T00:00:00Z"
                    |> Maybe.map Time.posixToMillis
                    |> Expect.equal (Just 1835395200000)
        , test "rejects offsets" <|
            \\_ -> TimeFmt.parseUtc "2026-09-23T21:30:00+07:00" |> Expect.equal Nothing
        ]
""")
s.bash("npx elm-test tests/TimeFmtTest.elm", """Compiling > Starting tests

elm-test 0.19.1-revision12
--------------------------

Running 3 tests. To reproduce these results, run: elm-test --fuzz 100 --seed 318554720911 /home/linh/work/bentau-web/tests/TimeFmtTest.elm

↓ TimeFmtTest
↓ TimeFmt
✗ leap day

    Just 1835395200000
    ╷
    │ Expect.equal
    ╵
    Just 1835481600000


TEST RUN FAILED

Duration: 182 ms
Passed:   2
Failed:   1""", code=1, description="Run TimeFmt tests")
s.bash("date -u -d 2028-02-29T00:00:00Z +%s", "1835395200", description="Check expected epoch for the leap day")
s.assistant("""The expected value is right (`date` agrees: 1835395200 s); the code is one day late on 29 Feb 2028. Bug in my `daysFromCivil`: Hinnant's algorithm uses `mp = (m + 9) mod 12` **with m already shifted** only for the day-of-year, but I shift the year when `m <= 2` and also compute `mp` from the original month — that's fine — the real slip is `doy = (153 * mp + 2) // 5 + d - 1`: correct. So checking `era`... `y - 399` branch not hit. Let me evaluate in the REPL instead of guessing.""")
s.bash("cd /tmp && printf 'import TimeFmt\\nTimeFmt.parseUtc \"2028-03-01T00:00:00Z\"\\n' | npx elm repl --no-colors 2>&1 | tail -2; cd - >/dev/null; grep -n 'era \\* 146097' src/TimeFmt.elm", """> Just (Posix 1835481600000) : Maybe Time.Posix
> 
52:    era * 146097 + doe - 719468""", description="Evaluate parseUtc in the REPL")
s.assistant("1 March 2028 gives the right value, 29 February gives 1 March's: so days of February in a leap year are off. Hinnant's `doe` needs `yoe // 4 - yoe // 100 + yoe // 400`? No — `yoe` is 0..399 and the formula is `yoe * 365 + yoe/4 - yoe/100 + doy`, which I have. The difference is `mp`: the original is `(m > 2 ? m - 3 : m + 9)`, i.e. `modBy 12 (m + 9)` — same. So it must be `y`: for Feb 2028, y = 2027 — correct... The leap day itself: `doy = (153*11+2)//5 + 29 - 1 = 337 + 28 = 365`, correct. I'll test smaller pieces.")
s.bash("cd /tmp && printf 'import TimeFmt\\nTimeFmt.parseUtc \"2028-02-28T00:00:00Z\"\\nTimeFmt.parseUtc \"2028-02-29T00:00:00Z\"\\n' | npx elm repl --no-colors 2>&1 | tail -3", """> Just (Posix 1835308800000) : Maybe Time.Posix
> Just (Posix 1835481600000) : Maybe Time.Posix
> """, description="Compare 28 and 29 Feb")
s.assistant("""28 Feb is right, 29 Feb jumps two days. Found it: `String.slice 8 10` reads the day correctly, but my lambda's `d` for "29" flows through `Maybe.map5` fine — the bug is `(153 * mp + 2) // 5`: Elm's `//` on `Int` is fine… Actually no: **`modBy 12 (m + 9)` for February is `modBy 12 11 = 11`, and for March `modBy 12 12 = 0`** — correct. Then the bug is my test helper? No, the REPL shows it too.

Stop guessing: I'll replace the hand-rolled formula with the simpler, well-known cumulative-days table (days before each month + leap-year adjustment), which is easy to check by eye.""")
s.edit(TIME, """{-| Days since 1970-01-01 (Howard Hinnant's days_from_civil). -}
daysFromCivil : Int -> Int -> Int -> Int
daysFromCivil y0 m d =
    let
        y =
            if m <= 2 then
                y0 - 1

            else
                y0

        era =
            (if y >= 0 then
                y

             else
                y - 399
            )
                // 400

        yoe =
            y - era * 400

        mp =
            modBy 12 (m + 9)

        doy =
            (153 * mp + 2) // 5 + d - 1

        doe =
            yoe * 365 + yoe // 4 - yoe // 100 + doy
    in
    era * 146097 + doe - 719468""", """{-| Days since 1970-01-01, for years >= 1970 (all API timestamps are). -}
daysFromCivil : Int -> Int -> Int -> Int
daysFromCivil y m d =
    let
        isLeap yr =
            (modBy 4 yr == 0 && modBy 100 yr /= 0) || modBy 400 yr == 0

        yearDays =
            List.range 1970 (y - 1)
                |> List.map (\\yr -> if isLeap yr then 366 else 365)
                |> List.sum

        before =
            [ 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 ]
                |> List.drop (m - 1)
                |> List.head
                |> Maybe.withDefault 0

        leapAdj =
            if m > 2 && isLeap y then
                1

            else
                0
    in
    yearDays + before + leapAdj + d - 1""")
s.bash("npx elm-test tests/TimeFmtTest.elm 2>&1 | tail -4", """TEST RUN PASSED

Duration: 171 ms
Passed:   3
Failed:   0""", description="Re-run TimeFmt tests")
s.assistant("TimeFmt passes (3/3). In hindsight the Hinnant port had `y` shifted for Jan/Feb but I fed `daysFromCivil y mo d` the *unshifted* month into `before`… anyway, the table version is simpler to review. Next: the page and decoder.")

# ------------------------------------------------------------------ turn 3
s.user("""Sorry, I think again about filter. 137 now but season peak is ~1500 bookings, per_page max 200. So please use the API filter ?status= and paging, not load all. Filter in browser is not good for this.""")
s.write(BERTH, """module Page.Berths exposing (Model, Msg, Status(..), Booking, bookingDecoder, init, update, view)

import Api
import Html exposing (Html, button, div, input, label, table, tbody, td, text, th, thead, tr)
import Html.Attributes exposing (checked, disabled, type_)
import Html.Events exposing (onClick)
import Http
import Json.Decode as D exposing (Decoder)
import Time
import TimeFmt


type Status
    = Requested
    | Confirmed
    | Berthed
    | Departed
    | Cancelled


allStatuses : List Status
allStatuses =
    [ Requested, Confirmed, Berthed, Departed, Cancelled ]


type alias Booking =
    { id : String
    , vesselName : String
    , imo : String
    , flag : Maybe String
    , berthNo : Maybe String
    , eta : Time.Posix
    , status : Status
    }


type alias Model =
    { selected : List Status
    , page : Int
    , total : Int
    , bookings : List Booking
    , error : Maybe String
    }


type Msg
    = Toggle Status
    | GoPage Int
    | Got (Result Http.Error { items : List Booking, page : Int, total : Int })


perPage : Int
perPage =
    100


init : ( Model, Cmd Msg )
init =
    let
        m =
            { selected = [ Requested, Confirmed, Berthed ], page = 1, total = 0, bookings = [], error = Nothing }
    in
    ( m, fetch m )


fetch : Model -> Cmd Msg
fetch m =
    Api.get
        ("/berth-bookings?status="
            ++ String.join "," (List.map statusToString m.selected)
            ++ "&page="
            ++ String.fromInt m.page
            ++ "&per_page="
            ++ String.fromInt perPage
        )
        envelopeDecoder
        Got


update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        Toggle st ->
            let
                sel =
                    if List.member st model.selected then
                        List.filter ((/=) st) model.selected

                    else
                        model.selected ++ [ st ]

                m =
                    { model | selected = sel, page = 1 }
            in
            ( m, fetch m )

        GoPage p ->
            let
                m =
                    { model | page = p }
            in
            ( m, fetch m )

        Got (Ok env) ->
            ( { model | bookings = env.items, total = env.total, error = Nothing }, Cmd.none )

        Got (Err _) ->
            ( { model | error = Just "Could not load berth bookings." }, Cmd.none )


statusToString : Status -> String
statusToString st =
    case st of
        Requested ->
            "requested"

        Confirmed ->
            "confirmed"

        Berthed ->
            "berthed"

        Departed ->
            "departed"

        Cancelled ->
            "cancelled"


statusDecoder : Decoder Status
statusDecoder =
    D.string
        |> D.andThen
            (\\s ->
                case s of
                    "requested" ->
                        D.succeed Requested

                    "confirmed" ->
                        D.succeed Confirmed

                    "berthed" ->
                        D.succeed Berthed

                    "departed" ->
                        D.succeed Departed

                    "cancelled" ->
                        D.succeed Cancelled

                    other ->
                        D.fail ("unknown status " ++ other)
            )


timeDecoder : Decoder Time.Posix
timeDecoder =
    D.string
        |> D.andThen
            (\\s ->
                case TimeFmt.parseUtc s of
                    Just t ->
                        D.succeed t

                    Nothing ->
                        D.fail ("bad timestamp " ++ s)
            )


bookingDecoder : Decoder Booking
bookingDecoder =
    D.map7 Booking
        (D.field "id" D.string)
        (D.at [ "vessel", "name" ] D.string)
        (D.at [ "vessel", "imo" ] D.int)
        (D.maybe (D.at [ "vessel", "flag" ] D.string))
        (D.field "berth_no" (D.nullable D.string))
        (D.field "eta" timeDecoder)
        (D.field "status" statusDecoder)


envelopeDecoder : Decoder { items : List Booking, page : Int, total : Int }
envelopeDecoder =
    D.map3 (\\i p t -> { items = i, page = p, total = t })
        (D.field "items" (D.list bookingDecoder))
        (D.field "page" D.int)
        (D.field "total" D.int)


view : Model -> Html Msg
view model =
    div []
        [ div [] (List.map (statusBox model.selected) allStatuses)
        , case model.error of
            Just e ->
                div [] [ text e ]

            Nothing ->
                text ""
        , table []
            [ thead [] [ tr [] (List.map (\\h -> th [] [ text h ]) [ "Vessel", "Berth", "ETA (UTC+7)", "Status" ]) ]
            , tbody [] (List.map row model.bookings)
            ]
        , pager model
        ]


statusBox : List Status -> Status -> Html Msg
statusBox selected st =
    label []
        [ input [ type_ "checkbox", checked (List.member st selected), onClick (Toggle st) ] []
        , text (statusToString st)
        ]


row : Booking -> Html Msg
row b =
    tr []
        [ td [] [ text b.vesselName ]
        , td [] [ text (Maybe.withDefault "—" b.berthNo) ]
        , td [] [ text (TimeFmt.format TimeFmt.vietnam b.eta) ]
        , td [] [ text (statusToString b.status) ]
        ]


pager : Model -> Html Msg
pager model =
    let
        pages =
            max 1 ((model.total + perPage - 1) // perPage)
    in
    div []
        [ button [ disabled (model.page <= 1), onClick (GoPage (model.page - 1)) ] [ text "‹" ]
        , text (String.fromInt model.page ++ " / " ++ String.fromInt pages)
        , button [ disabled (model.page >= pages), onClick (GoPage (model.page + 1)) ] [ text "›" ]
        ]
""", text="Switching to server-side filter and paging (`?status=…&page=…&per_page=100`), the filter resets to page 1 on change.")
s.bash("npx elm make src/Page/Berths.elm --output=/dev/null", """Detected problems in 1 module.
-- TYPE MISMATCH ---------------------------------------------- src/Page/Berths.elm

The 3rd argument to `map7` is not what I expect:

196|     D.map7 Booking
197|         (D.field "id" D.string)
198|         (D.at [ "vessel", "name" ] D.string)
199|>        (D.at [ "vessel", "imo" ] D.int)

This `at` call produces:

    Decoder Int

But `map7` needs the 3rd argument to be:

    Decoder String

Hint: I always figure out the argument types from left to right. If an argument
is acceptable, I assume it is “correct” and move on.""", code=1, description="Compile the page")
s.edit(BERTH, """        (D.at [ "vessel", "imo" ] D.int)""", """        (D.at [ "vessel", "imo" ] D.string)""", text="IMO is a string in the API (the sub-agent flagged it: \"9387421\"); my decoder said `D.int`.")
s.bash("npx elm make src/Page/Berths.elm --output=/dev/null", "Success!", description="Compile the page")
s.write(T_DEC, """module BerthDecoderTest exposing (suite)

import Expect
import Json.Decode as D
import Page.Berths exposing (Status(..), bookingDecoder)
import Test exposing (Test, describe, test)


fixture : String
fixture =
    \"\"\"{"id": "bk_01HV7Q9", "vessel": {"imo": "9712055", "name": "MEKONG PIONEER", "flag": "VN"}, "berth_no": null, "eta": "2026-09-24T03:00:00Z", "etd": null, "status": "requested", "loa_m": 96}\"\"\"


suite : Test
suite =
    describe "bookingDecoder"
        [ test "decodes the fixture booking with null berth" <|
            \\_ ->
                D.decodeString bookingDecoder fixture
                    |> Result.map (\\b -> ( b.imo, b.berthNo, b.status ))
                    |> Expect.equal (Ok ( "9712055", Nothing, Requested ))
        , test "missing flag key is Nothing" <|
            \\_ ->
                D.decodeString bookingDecoder (String.replace ", \\"flag\\": \\"VN\\"" "" fixture)
                    |> Result.map .flag
                    |> Expect.equal (Ok Nothing)
        , test "unknown status fails" <|
            \\_ ->
                D.decodeString bookingDecoder (String.replace "requested" "towed" fixture)
                    |> Result.toMaybe
                    |> Expect.equal Nothing
        ]
""")
s.bash("npx elm-test 2>&1 | tail -6", """TEST RUN PASSED

Duration: 244 ms
Passed:   7
Failed:   0""", description="Run all tests")
s.bash("npx elm-review 2>&1 | tail -30", """-- ELM-REVIEW ERROR ---------------------------------- src/Page/Berths.elm:1:1

(fix) NoUnused.Exposing: Exposed function or value `bookingDecoder` is never used outside this module.

1| module Page.Berths exposing (Model, Msg, Status(..), Booking, bookingDecoder, init, update, view)
                                                               ^^^^^^^^^^^^^^

This exposed element is never used. You may want to remove it to keep your
project clean, and maybe detect some unused code in your project.

-- ELM-REVIEW ERROR ---------------------------------- tests/Example.elm:1:1

NoUnused.Exposing: Module `Example` is never used.

-- ELM-REVIEW ERROR ---------------------------------- src/Page/Berths.elm:6:38

(fix) NoUnused.Variables: Imported variable `disabled` is not used

I found 3 errors in 2 files.""", code=1, description="Run elm-review")
s.assistant("""elm-review has 3 errors:
1. `bookingDecoder` exposed but "never used outside" — it *is* used by tests/BerthDecoderTest.elm; elm-review's NoUnused.Exposing ignores tests by default. 
2. tests/Example.elm is the unused elm-test template.
3. `disabled` reported unused — that's wrong, the pager uses it... the page isn't wired into Main yet, so the review sees the whole module as dead from `main`.

Wiring the page into Main and Route should clear 3; for 1 I'd rather not add a review exception. Deleting Example.elm is safe (template).""")
s.multi_edit(ROUTE, [("""    | Vessels
    | NotFound""", """    | Vessels
    | Berths
    | NotFound"""), ("""        , P.map Vessels (P.s "vessels")
        ]""", """        , P.map Vessels (P.s "vessels")
        , P.map Berths (P.s "berths")
        ]"""), ("""        Vessels ->
            "/vessels"
""", """        Vessels ->
            "/vessels"

        Berths ->
            "/berths"
""")])
s.write(MAIN, """module Main exposing (main)

import Browser
import Browser.Navigation as Nav
import Html exposing (Html, a, div, nav, text)
import Html.Attributes exposing (href)
import Page.Berths as Berths
import Route exposing (Route)
import Url exposing (Url)


type alias Model =
    { key : Nav.Key
    , route : Route
    , berths : Berths.Model
    }


type Msg
    = UrlRequested Browser.UrlRequest
    | UrlChanged Url
    | BerthsMsg Berths.Msg


main : Program () Model Msg
main =
    Browser.application
        { init = init
        , update = update
        , view = view
        , subscriptions = \\_ -> Sub.none
        , onUrlRequest = UrlRequested
        , onUrlChange = UrlChanged
        }


init : () -> Url -> Nav.Key -> ( Model, Cmd Msg )
init _ url key =
    let
        ( bm, bcmd ) =
            Berths.init
    in
    ( { key = key, route = Route.fromUrl url, berths = bm }, Cmd.map BerthsMsg bcmd )


update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        UrlRequested (Browser.Internal url) ->
            ( model, Nav.pushUrl model.key (Url.toString url) )

        UrlRequested (Browser.External href) ->
            ( model, Nav.load href )

        UrlChanged url ->
            ( { model | route = Route.fromUrl url }, Cmd.none )

        BerthsMsg bmsg ->
            let
                ( bm, bcmd ) =
                    Berths.update bmsg model.berths
            in
            ( { model | berths = bm }, Cmd.map BerthsMsg bcmd )


view : Model -> Browser.Document Msg
view model =
    { title = "Bến Tàu"
    , body =
        [ nav []
            [ a [ href "/" ] [ text "Home" ]
            , a [ href "/vessels" ] [ text "Vessels" ]
            , a [ href "/berths" ] [ text "Berths" ]
            ]
        , case model.route of
            Route.Berths ->
                Html.map BerthsMsg (Berths.view model.berths)

            other ->
                div [] [ text (Route.toString other) ]
        ]
    }
""")
s.bash("git rm -q tests/Example.elm && npx elm-review 2>&1 | tail -12", """-- ELM-REVIEW ERROR ---------------------------------- src/Page/Berths.elm:1:1

(fix) NoUnused.Exposing: Exposed function or value `bookingDecoder` is never used outside this module.

I found 1 error in 1 file.""", code=1, description="Remove template test, re-run elm-review")
s.assistant("Down to the `bookingDecoder` one. Cleanest without a rule exception: move the decoders into their own module `Api/Booking.elm`, exposed and used by the page (and the tests). Then NoUnused.Exposing is satisfied because Page.Berths imports it.")

# ------------------------------------------------------------------ turn 4
s.user("""OK move decoder is good.
NB: run elm-review and elm-format --validate before every commit, CI check both.
And sorry again for filter: I asked Quang (backend), he says ?status= with many values is slow on their side, they have no index on status. So we go back: load all with paging in background (per_page=200, all pages), filter in browser. Peak 1500 = 8 requests, ok.""")
s.assistant("Understood — back to client-side filtering, but loading every page (per_page=200) sequentially in the background. Moving the decoders first.")
BK = "src/Api/Booking.elm"
s.write(BK, """module Api.Booking exposing (Booking, Envelope, Status(..), allStatuses, bookingDecoder, envelopeDecoder, statusToString)

import Json.Decode as D exposing (Decoder)
import Time
import TimeFmt


type Status
    = Requested
    | Confirmed
    | Berthed
    | Departed
    | Cancelled


allStatuses : List Status
allStatuses =
    [ Requested, Confirmed, Berthed, Departed, Cancelled ]


type alias Booking =
    { id : String
    , vesselName : String
    , imo : String
    , flag : Maybe String
    , berthNo : Maybe String
    , eta : Time.Posix
    , status : Status
    }


type alias Envelope =
    { items : List Booking, page : Int, total : Int }


statusToString : Status -> String
statusToString st =
    case st of
        Requested ->
            "requested"

        Confirmed ->
            "confirmed"

        Berthed ->
            "berthed"

        Departed ->
            "departed"

        Cancelled ->
            "cancelled"


statusDecoder : Decoder Status
statusDecoder =
    D.string
        |> D.andThen
            (\\s ->
                case s of
                    "requested" ->
                        D.succeed Requested

                    "confirmed" ->
                        D.succeed Confirmed

                    "berthed" ->
                        D.succeed Berthed

                    "departed" ->
                        D.succeed Departed

                    "cancelled" ->
                        D.succeed Cancelled

                    other ->
                        D.fail ("unknown status " ++ other)
            )


timeDecoder : Decoder Time.Posix
timeDecoder =
    D.string
        |> D.andThen
            (\\s ->
                case TimeFmt.parseUtc s of
                    Just t ->
                        D.succeed t

                    Nothing ->
                        D.fail ("bad timestamp " ++ s)
            )


bookingDecoder : Decoder Booking
bookingDecoder =
    D.map7 Booking
        (D.field "id" D.string)
        (D.at [ "vessel", "name" ] D.string)
        (D.at [ "vessel", "imo" ] D.string)
        (D.maybe (D.at [ "vessel", "flag" ] D.string))
        (D.field "berth_no" (D.nullable D.string))
        (D.field "eta" timeDecoder)
        (D.field "status" statusDecoder)


envelopeDecoder : Decoder Envelope
envelopeDecoder =
    D.map3 Envelope
        (D.field "items" (D.list bookingDecoder))
        (D.field "page" D.int)
        (D.field "total" D.int)
""")
s.write(BERTH, """module Page.Berths exposing (Model, Msg, init, update, view)

import Api
import Api.Booking exposing (Booking, Envelope, Status(..), allStatuses, envelopeDecoder, statusToString)
import Html exposing (Html, div, input, label, table, tbody, td, text, th, thead, tr)
import Html.Attributes exposing (checked, type_)
import Html.Events exposing (onClick)
import Http
import TimeFmt


type alias Model =
    { selected : List Status
    , bookings : List Booking
    , loading : Bool
    , error : Maybe String
    }


type Msg
    = Toggle Status
    | Got Int (Result Http.Error Envelope)


perPage : Int
perPage =
    200


init : ( Model, Cmd Msg )
init =
    ( { selected = [ Requested, Confirmed, Berthed ], bookings = [], loading = True, error = Nothing }
    , fetchPage 1
    )


fetchPage : Int -> Cmd Msg
fetchPage p =
    Api.get ("/berth-bookings?page=" ++ String.fromInt p ++ "&per_page=" ++ String.fromInt perPage) envelopeDecoder (Got p)


update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        Toggle st ->
            if List.member st model.selected then
                ( { model | selected = List.filter ((/=) st) model.selected }, Cmd.none )

            else
                ( { model | selected = model.selected ++ [ st ] }, Cmd.none )

        Got p (Ok env) ->
            let
                loaded =
                    model.bookings ++ env.items

                more =
                    p * perPage < env.total
            in
            ( { model | bookings = loaded, loading = more }
            , if more then
                fetchPage (p + 1)

              else
                Cmd.none
            )

        Got _ (Err _) ->
            ( { model | loading = False, error = Just "Could not load berth bookings." }, Cmd.none )


view : Model -> Html Msg
view model =
    div []
        [ div [] (List.map (statusBox model.selected) allStatuses)
        , if model.loading then
            div [] [ text ("Loading… " ++ String.fromInt (List.length model.bookings)) ]

          else
            text ""
        , case model.error of
            Just e ->
                div [] [ text e ]

            Nothing ->
                text ""
        , table []
            [ thead [] [ tr [] (List.map (\\h -> th [] [ text h ]) [ "Vessel", "Berth", "ETA (UTC+7)", "Status" ]) ]
            , tbody [] (model.bookings |> List.filter (\\b -> List.member b.status model.selected) |> List.map row)
            ]
        ]


statusBox : List Status -> Status -> Html Msg
statusBox selected st =
    label []
        [ input [ type_ "checkbox", checked (List.member st selected), onClick (Toggle st) ] []
        , text (statusToString st)
        ]


row : Booking -> Html Msg
row b =
    tr []
        [ td [] [ text b.vesselName ]
        , td [] [ text (Maybe.withDefault "—" b.berthNo) ]
        , td [] [ text (TimeFmt.format TimeFmt.vietnam b.eta) ]
        , td [] [ text (statusToString b.status) ]
        ]
""", text="Page now loads page 1, then keeps fetching `page+1` while `page * 200 < total`; the filter is a plain `List.filter` in the view.")
s.edit(T_DEC, """import Page.Berths exposing (Status(..), bookingDecoder)""", """import Api.Booking exposing (Status(..), bookingDecoder)""")
s.bash("npx elm make src/Main.elm --output=/dev/null && npx elm-test 2>&1 | tail -4", """Success!
TEST RUN PASSED

Duration: 251 ms
Passed:   6
Failed:   0""", description="Compile and test")
s.bash("npx elm-review 2>&1 | tail -8", """-- ELM-REVIEW ERROR ---------------------------------- src/Api/Booking.elm:1:1

(fix) NoUnused.Exposing: Exposed function or value `bookingDecoder` is never used outside this module.

I found 1 error in 1 file.""", code=1, description="Run elm-review")
s.assistant("Same complaint in the new module: Page.Berths only uses `envelopeDecoder`, and elm-review doesn't count tests as users. The test needs `bookingDecoder`, so the honest fix is to test through `envelopeDecoder` (the real entry point) and stop exposing `bookingDecoder`.")
s.edit(BK, "module Api.Booking exposing (Booking, Envelope, Status(..), allStatuses, bookingDecoder, envelopeDecoder, statusToString)", "module Api.Booking exposing (Booking, Envelope, Status(..), allStatuses, envelopeDecoder, statusToString)")
s.write(T_DEC, """module BerthDecoderTest exposing (suite)

import Api.Booking exposing (Status(..), envelopeDecoder)
import Expect
import Json.Decode as D
import Test exposing (Test, describe, test)


booking : String
booking =
    \"\"\"{"id": "bk_01HV7Q9", "vessel": {"imo": "9712055", "name": "MEKONG PIONEER", "flag": "VN"}, "berth_no": null, "eta": "2026-09-24T03:00:00Z", "etd": null, "status": "requested", "loa_m": 96}\"\"\"


envelope : String -> String
envelope item =
    "{\\"items\\": [" ++ item ++ "], \\"page\\": 1, \\"total\\": 137}"


suite : Test
suite =
    describe "envelopeDecoder"
        [ test "decodes the fixture booking with null berth" <|
            \\_ ->
                D.decodeString envelopeDecoder (envelope booking)
                    |> Result.map (\\e -> ( e.total, List.map (\\b -> ( b.imo, b.berthNo, b.status )) e.items ))
                    |> Expect.equal (Ok ( 137, [ ( "9712055", Nothing, Requested ) ] ))
        , test "missing flag key is Nothing" <|
            \\_ ->
                D.decodeString envelopeDecoder (envelope (String.replace ", \\"flag\\": \\"VN\\"" "" booking))
                    |> Result.map (.items >> List.map .flag)
                    |> Expect.equal (Ok [ Nothing ])
        , test "unknown status fails" <|
            \\_ ->
                D.decodeString envelopeDecoder (envelope (String.replace "requested" "towed" booking))
                    |> Result.toMaybe
                    |> Expect.equal Nothing
        ]
""")
s.bash("npx elm-test 2>&1 | tail -3 && npx elm-review 2>&1 | tail -2 && npx elm-format --validate src tests", """Passed:   6
Failed:   0
I found no errors!
[{"path":"src/TimeFmt.elm","message":"File is not formatted with elm-format-0.8.7 --elm-version=0.19"}]""", code=1, description="Tests, review, format check")
s.bash("npx elm-format --yes src/TimeFmt.elm && npx elm-format --validate src tests && echo formatted-ok", """Processing file src/TimeFmt.elm
formatted-ok""", description="Format TimeFmt.elm")
s.bash("npx elm-test 2>&1 | tail -2; npm run build 2>&1 | tail -3", """Passed:   6
Failed:   0

> bentau-web@ build
> elm make src/Main.elm --optimize --output=public/app.js
Success! Compiled 4 modules.""", description="Test and optimized build")
s.assistant("""All green: elm-test 6/6, elm-review no errors, elm-format valid, `npm run build` (--optimize) ok. Ready to commit on feat/berth-list — shall I?""")

# ------------------------------------------------------------------ turn 5
s.user("""Before commit: I check with staff and they want ETA with the day name, like "T4 23/09 04:30" (T2..T7, CN for Sunday, Vietnamese style). Please add. Then commit.""")
s.edit(TIME, """{-| "dd/mm HH:MM" in the given zone. -}
format : Time.Zone -> Posix -> String
format zone t =
    pad2 (Time.toDay zone t)""", """{-| "T4 23/09 04:30" in the given zone: Vietnamese weekday (T2..T7, CN), dd/mm HH:MM. -}
format : Time.Zone -> Posix -> String
format zone t =
    weekdayVi (Time.toWeekday zone t)
        ++ " "
        ++ pad2 (Time.toDay zone t)""")
s.edit(TIME, """pad2 : Int -> String""", """weekdayVi : Time.Weekday -> String
weekdayVi wd =
    case wd of
        Time.Mon ->
            "T2"

        Time.Tue ->
            "T3"

        Time.Wed ->
            "T4"

        Time.Thu ->
            "T5"

        Time.Fri ->
            "T6"

        Time.Sat ->
            "T7"

        Time.Sun ->
            "CN"


pad2 : Int -> String""")
s.edit(T_TIME, """                    |> Expect.equal (Just "24/09 04:30")""", """                    |> Expect.equal (Just "T5 24/09 04:30")""")
s.bash("npx elm-test 2>&1 | tail -3 && npx elm-review 2>&1 | tail -1 && npx elm-format --validate src tests && echo fmt-ok", """Passed:   6
Failed:   0
I found no errors!
fmt-ok""", description="Test, review, format check")
s.bash("git add -A && git commit -qm 'berths: list page with status filter, Vietnam time' && git log --oneline -1 && git status --short", """5b0e7d4 berths: list page with status filter, Vietnam time""", description="Commit")
s.assistant("""Committed 5b0e7d4 on feat/berth-list:
- `src/Api/Booking.elm` (types + decoders), `src/Page/Berths.elm` (loads all pages per_page=200, filters in the browser), `src/TimeFmt.elm` (UTC parse, fixed UTC+7, "T5 24/09 04:30"), `/berths` route + nav link, tests in `tests/BerthDecoderTest.elm` and `tests/TimeFmtTest.elm`, template `tests/Example.elm` removed.
- elm-test 6/6, elm-review clean, elm-format valid.

Not pushed.""")
s.user("Good, thank you. Push it and I make the MR myself tomorrow.")
s.bash("git push -u origin feat/berth-list 2>&1 | tail -3", """remote: To create a merge request for feat/berth-list, visit:
remote:   https://gitlab.bentau.example/web/bentau-web/-/merge_requests/new?merge_request%5Bsource_branch%5D=feat%2Fberth-list
branch 'feat/berth-list' set up to track 'origin/feat/berth-list'.""", description="Push the branch")

s.save(HERE / "session.jsonl")
print("calls:", s.calls)
