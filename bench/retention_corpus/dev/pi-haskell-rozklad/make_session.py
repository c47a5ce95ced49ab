# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout5a split.

A Polish-flavoured non-native English user (rules asked as questions: "can we avoid orphan
instances?") has pi fix night departures missing from a GTFS departure-board CLI in Haskell
(GTFS times past 24:00 were dropped), add a --json output and speed up parsing. cabal build /
cabal test (hspec), hlint, GHC 9.4.8 multi-line type errors. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/kasia/src/rozklad"
s = PiSession(CWD, "2026-04-14T09:12:03", seed="rozklad-nightlines")

CABAL = "rozklad.cabal"
TYPES = "src/Rozklad/Types.hs"
PARSE = "src/Rozklad/Parse.hs"
BOARD = "src/Rozklad/Board.hs"
TIME = "src/Rozklad/Time.hs"
JSON = "src/Rozklad/Json.hs"
MAIN = "app/Main.hs"
PSPEC = "test/Rozklad/ParseSpec.hs"
BSPEC = "test/Rozklad/BoardSpec.hs"
TSPEC = "test/Rozklad/TimeSpec.hs"
HLINT = ".hlint.yaml"
CHLOG = "CHANGELOG.md"

s.files.update({
    CABAL: """cabal-version:      3.0
name:               rozklad
version:            0.4.1
synopsis:           Departure boards from GTFS feeds
license:            BSD-3-Clause
build-type:         Simple

common warnings
    ghc-options: -Wall -Wcompat -Werror=incomplete-patterns -Worphans

library
    import:           warnings
    exposed-modules:  Rozklad.Types
                      Rozklad.Parse
                      Rozklad.Board
    build-depends:    base >=4.16 && <4.18,
                      bytestring >=0.11 && <0.12,
                      cassava ^>=0.5.3,
                      containers ^>=0.6,
                      text >=2.0 && <2.1,
                      time >=1.11 && <1.13,
                      vector ^>=0.13
    hs-source-dirs:   src
    default-language: GHC2021

executable rozklad
    import:           warnings
    main-is:          Main.hs
    build-depends:    base, rozklad, optparse-applicative ^>=0.18, text, time
    hs-source-dirs:   app
    default-language: GHC2021

test-suite rozklad-test
    import:           warnings
    type:             exitcode-stdio-1.0
    main-is:          Spec.hs
    other-modules:    Rozklad.ParseSpec
                      Rozklad.BoardSpec
    build-depends:    base, rozklad, hspec ^>=2.11, text, time, bytestring
    build-tool-depends: hspec-discover:hspec-discover
    hs-source-dirs:   test
    default-language: GHC2021
""",
    TYPES: """module Rozklad.Types
  ( StopTime (..)
  , StopId
  , TripId
  ) where

import Data.Text (Text)
import Data.Time (TimeOfDay)

type StopId = Text
type TripId = Text

data StopTime = StopTime
  { stTrip      :: !TripId
  , stStop      :: !StopId
  , stArrival   :: !TimeOfDay
  , stDeparture :: !TimeOfDay
  , stHeadsign  :: !Text
  } deriving (Eq, Show)
""",
    PARSE: """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.Parse
  ( parseStopTimes
  , parseGtfsTime
  ) where

import qualified Data.ByteString.Lazy as BL
import Data.Csv (FromNamedRecord (..), decodeByName, (.:))
import Data.Maybe (mapMaybe)
import Data.Text (Text)
import qualified Data.Text as T
import Data.Time (TimeOfDay, defaultTimeLocale, parseTimeM)
import qualified Data.Vector as V

import Rozklad.Types

data Row = Row Text Text Text Text Text

instance FromNamedRecord Row where
  parseNamedRecord r =
    Row <$> r .: "trip_id" <*> r .: "stop_id" <*> r .: "arrival_time"
        <*> r .: "departure_time" <*> r .: "stop_headsign"

parseGtfsTime :: Text -> Maybe TimeOfDay
parseGtfsTime = parseTimeM True defaultTimeLocale "%H:%M:%S" . T.unpack

toStopTime :: Row -> Maybe StopTime
toStopTime (Row trip stop arr dep hs) =
  StopTime trip stop <$> parseGtfsTime arr <*> parseGtfsTime dep <*> pure hs

parseStopTimes :: BL.ByteString -> Either String [StopTime]
parseStopTimes bs = do
  (_, rows) <- decodeByName bs
  pure (mapMaybe toStopTime (V.toList rows))
""",
    BOARD: """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.Board
  ( departures
  , renderBoard
  ) where

import Data.List (sortOn)
import Data.Text (Text)
import qualified Data.Text as T
import Data.Time (TimeOfDay (..))

import Rozklad.Types

-- | Departures from a stop at or after the given time, earliest first.
departures :: StopId -> TimeOfDay -> Int -> [StopTime] -> [StopTime]
departures stop from n =
  take n . sortOn stDeparture . filter (\\st -> stStop st == stop && stDeparture st >= from)

formatHM :: TimeOfDay -> Text
formatHM (TimeOfDay h m _) = T.pack (pad h <> ":" <> pad m)
  where pad x = if x < 10 then '0' : show x else show x

renderRow :: StopTime -> Text
renderRow st = T.unwords [formatHM (stDeparture st), stHeadsign st]

renderBoard :: [StopTime] -> Text
renderBoard = T.unlines . map renderRow
""",
    MAIN: """module Main (main) where

import qualified Data.ByteString.Lazy as BL
import qualified Data.Text as T
import qualified Data.Text.IO as TIO
import Options.Applicative

import Rozklad.Board
import Rozklad.Parse

data Opts = Opts
  { optFeed  :: FilePath
  , optStop  :: String
  , optFrom  :: String
  , optCount :: Int
  }

opts :: Parser Opts
opts = Opts
  <$> strOption (long "feed" <> metavar "DIR" <> value "data/ztm-sample")
  <*> strOption (long "stop" <> metavar "STOP_ID")
  <*> strOption (long "from" <> metavar "HH:MM" <> value "00:00")
  <*> option auto (long "count" <> value 10)

main :: IO ()
main = do
  o <- execParser (info (opts <**> helper) fullDesc)
  bs <- BL.readFile (optFeed o <> "/stop_times.txt")
  case parseStopTimes bs of
    Left err -> fail err
    Right sts -> case parseGtfsTime (T.pack (optFrom o <> ":00")) of
      Nothing -> fail "bad --from"
      Just from -> TIO.putStr (renderBoard (departures (T.pack (optStop o)) from (optCount o) sts))
""",
    PSPEC: """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.ParseSpec (spec) where

import Data.Time (TimeOfDay (..))
import Test.Hspec

import Rozklad.Parse

spec :: Spec
spec = describe "parseGtfsTime" $ do
  it "parses a morning time" $
    parseGtfsTime "07:05:00" `shouldBe` Just (TimeOfDay 7 5 0)
  it "rejects garbage" $
    parseGtfsTime "7h05" `shouldBe` Nothing
""",
    BSPEC: """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.BoardSpec (spec) where

import Data.Time (TimeOfDay (..))
import Test.Hspec

import Rozklad.Board
import Rozklad.Types

st :: Int -> Int -> StopTime
st h m = StopTime "t1" "7013" (TimeOfDay h m 0) (TimeOfDay h m 0) "Dworzec Centralny"

spec :: Spec
spec = describe "departures" $ do
  it "keeps only the stop and later times" $
    map stDeparture (departures "7013" (TimeOfDay 8 0 0) 10 [st 7 50, st 8 10, st 8 5])
      `shouldBe` [TimeOfDay 8 5 0, TimeOfDay 8 10 0]
  it "renders HH:MM and the headsign" $
    renderBoard [st 8 5] `shouldBe` "08:05 Dworzec Centralny\\n"
""",
    HLINT: """- ignore: {name: "Use camelCase"}
- warn: {name: "Use Text.unwords"}
""",
    CHLOG: """# Revision history for rozklad

## 0.4.1 -- 2026-03-02

* `--count` option for the board.
""",
})
s.snapshot()


def build_ok(extra: str = "") -> str:
    return ("Resolving dependencies...\nBuild profile: -w ghc-9.4.8 -O1\nIn order, the following will be built (use -v for more details):\n"
            " - rozklad-0.4.1 (lib) (file src/Rozklad/Types.hs changed)\n" + extra)


# ============================================================================================ turn 1
s.user(
    "Hello! We have a problem with the departure board for the stop 7013 (Rondo ONZ), the night buses N-lines after midnight are not on the board at all. "
    "I think is because in GTFS the times after midnight are written like 25:10:00, and we parse it somehow wrong. Sample feed is in data/ztm-sample. "
    "Please can you look what is happening? We build with cabal and ghc 9.4.8, same like the CI, so can we stay on 9.4 and not use things from newer ghc?",
    pause=0,
)
s.bash("ls; ls src/Rozklad test test/Rozklad data/ztm-sample", "CHANGELOG.md\nLICENSE\nREADME.md\napp\ncabal.project\ndata\nrozklad.cabal\nsrc\ntest\n\nsrc/Rozklad:\nBoard.hs\nParse.hs\nTypes.hs\n\ntest:\nRozklad\nSpec.hs\n\ntest/Rozklad:\nBoardSpec.hs\nParseSpec.hs\n\ndata/ztm-sample:\nagency.txt\ncalendar.txt\ncalendar_dates.txt\nroutes.txt\nstop_times.txt\nstops.txt\ntrips.txt\n")
s.bash("ghc --version; cabal --version; cat cabal.project", "The Glorious Glasgow Haskell Compilation System, version 9.4.8\ncabal-install version 3.10.2.1\ncompiled using version 3.10.2.1 of the Cabal library \npackages: .\ntests: True\n")
s.read(CABAL)
s.reads([TYPES, PARSE, BOARD])
s.read(MAIN)
s.bash("git log --oneline -6; git status --short", "e41c0d2 board: --count option\n9b7f1a4 parse: cassava instead of split\n3d20c77 board: sort by departure\n71aa0e5 rozklad 0.4.0\nc0f9e12 stops.txt loader\n5a1e8b3 initial import\n")
s.bash("cabal build 2>&1 | tail -3", "Up to date\n")
s.bash("cabal test 2>&1 | tail -6", "Running 1 test suites...\nTest suite rozklad-test: RUNNING...\nTest suite rozklad-test: PASS\nTest suite logged to:\n/home/kasia/src/rozklad/dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/t/rozklad-test/test/rozklad-0.4.1-rozklad-test.log\n1 of 1 test suites (1 of 1 test cases) passed.\n")
s.bash("head -3 data/ztm-sample/stop_times.txt; wc -l data/ztm-sample/stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign\nN32_3_0012,23:41:00,23:41:00,7013,14,Bemowo\nN32_3_0012,23:44:00,23:44:00,7014,15,Bemowo\n18413 data/ztm-sample/stop_times.txt\n")
s.bash("awk -F, 'NR>1 && ($2 >= \"24\" || $3 >= \"24\")' data/ztm-sample/stop_times.txt | wc -l; grep ',7013,' data/ztm-sample/stop_times.txt | awk -F, '$3 >= \"24\"' | head -4", "312\nN32_3_0014,24:11:00,24:11:00,7013,14,Bemowo\nN32_3_0016,24:41:00,24:41:00,7013,14,Bemowo\nN44_1_0003,25:10:00,25:10:00,7013,9,Gocław\nN44_1_0005,25:40:00,25:40:00,7013,9,Gocław\n")
s.bash("cabal run -v0 rozklad -- --stop 7013 --from 23:30", "23:41 Bemowo\n23:52 Gocław\n")
s.bash("cabal repl -v0 rozklad <<'EOF'\n:set -XOverloadedStrings\nimport Rozklad.Parse\nparseGtfsTime \"23:59:00\"\nparseGtfsTime \"24:11:00\"\nparseGtfsTime \"25:10:00\"\nEOF", "Just 23:59:00\nNothing\nNothing\n")
s.assistant(
    "I found it. Two things together:\n\n"
    "1. `parseGtfsTime` uses `parseTimeM \"%H:%M:%S\"` into a `TimeOfDay`, and a `TimeOfDay` cannot be 24:00 or later, so `24:11:00` and `25:10:00` give `Nothing`.\n"
    "2. `parseStopTimes` uses `mapMaybe toStopTime`, so every row that fails is silently thrown away. In the sample feed that is 312 of 18,412 stop_times rows, all the night trips after midnight (N32, N44, ...).\n\n"
    "GTFS defines these times relative to noon minus 12h of the service day, so they can go over 24:00. My proposal: a new module `Rozklad.Time` with `newtype ServiceTime = ServiceTime Int` (seconds since the start of the service day), our own parser for `H:MM:SS` that accepts hours >= 24, and `StopTime` uses `ServiceTime` instead of `TimeOfDay`. "
    "And parse errors become a `Left` with the row number instead of a silent drop. Everything works with GHC 9.4.8 and base < 4.18, nothing new needed."
)

# ============================================================================================ turn 2
s.user(
    "Yes, this sounds good, do it like this. Only two questions: can we keep the parsing out of Types.hs, so Types is only the data? And the board must show the night times somehow readable, "
    "nobody wants to see 25:10 on a bus stop screen. Can we show it like 01:10 with +1 after, like printed timetables do it? So 25:10:00 is \"01:10+1\"."
)
s.write(TIME, """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.Time
  ( ServiceTime (..)
  , parseServiceTime
  , fromHM
  , formatBoardTime
  ) where

import Data.Char (isDigit)
import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Text.Read as TR

-- | Seconds since the start of the service day (GTFS allows values past 24:00:00).
newtype ServiceTime = ServiceTime Int
  deriving (Eq, Ord, Show)

fromHM :: Int -> Int -> ServiceTime
fromHM h m = ServiceTime (h * 3600 + m * 60)

-- | Parses H:MM:SS or HH:MM:SS; hours may be 24 or more.
parseServiceTime :: Text -> Maybe ServiceTime
parseServiceTime t = case T.splitOn ":" t of
  [h, m, sec] | T.length m == 2, T.length sec == 2, all (T.all isDigit) [h, m, sec] -> do
    hh <- num h
    mm <- num m
    ss <- num sec
    if mm < 60 && ss < 60 then Just (ServiceTime (hh * 3600 + mm * 60 + ss)) else Nothing
  _ -> Nothing
  where
    num x = case TR.decimal x of
      Right (n, rest) | T.null rest -> Just n
      _ -> Nothing

-- | HH:MM for the board; times past midnight get a "+1" (or "+2") suffix.
formatBoardTime :: ServiceTime -> Text
formatBoardTime (ServiceTime secs) = hm <> suffix
  where
    (days, rest) = secs `divMod` 86400
    (h, m) = (rest `div` 3600, rest `mod` 60)
    pad x = T.justifyRight 2 '0' (T.pack (show x))
    hm = pad h <> ":" <> pad m
    suffix = if days == 0 then "" else "+" <> T.pack (show days)
""", text="Starting with the new `Rozklad.Time` module; Types stays only data.")
s.edit(TYPES, """import Data.Text (Text)
import Data.Time (TimeOfDay)
""", """import Data.Text (Text)

import Rozklad.Time (ServiceTime)
""")
s.edit(TYPES, """  , stArrival   :: !TimeOfDay
  , stDeparture :: !TimeOfDay""", """  , stArrival   :: !ServiceTime
  , stDeparture :: !ServiceTime""")
s.edit(CABAL, """    exposed-modules:  Rozklad.Types
""", """    exposed-modules:  Rozklad.Types
                      Rozklad.Time
""")
s.edit(PARSE, """parseGtfsTime :: Text -> Maybe TimeOfDay
parseGtfsTime = parseTimeM True defaultTimeLocale "%H:%M:%S" . T.unpack

toStopTime :: Row -> Maybe StopTime
toStopTime (Row trip stop arr dep hs) =
  StopTime trip stop <$> parseGtfsTime arr <*> parseGtfsTime dep <*> pure hs

parseStopTimes :: BL.ByteString -> Either String [StopTime]
parseStopTimes bs = do
  (_, rows) <- decodeByName bs
  pure (mapMaybe toStopTime (V.toList rows))
""", """parseGtfsTime :: Text -> Maybe ServiceTime
parseGtfsTime = parseServiceTime

toStopTime :: Int -> Row -> Either String StopTime
toStopTime n (Row trip stop arr dep hs) =
  StopTime trip stop <$> time arr <*> time dep <*> pure hs
  where
    time t = maybe (Left ("stop_times.txt row " <> show n <> ": bad time " <> T.unpack t)) Right (parseGtfsTime t)

-- | All rows, or the first row whose time does not parse (rows count from 2, after the header).
parseStopTimes :: BL.ByteString -> Either String [StopTime]
parseStopTimes bs = do
  (_, rows) <- decodeByName bs
  traverse (uncurry toStopTime) (zip [2 ..] (V.toList rows))
""")
s.edit(PARSE, """import Data.Maybe (mapMaybe)
import Data.Text (Text)
import qualified Data.Text as T
import Data.Time (TimeOfDay, defaultTimeLocale, parseTimeM)
import qualified Data.Vector as V

import Rozklad.Types
""", """import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Vector as V

import Rozklad.Time
import Rozklad.Types
""")
s.bash("cabal build 2>&1 | tail -40", build_ok(""" - rozklad-0.4.1 (exe:rozklad) (dependency rebuilt)
Preprocessing library for rozklad-0.4.1..
Building library for rozklad-0.4.1..
[1 of 4] Compiling Rozklad.Time     ( src/Rozklad/Time.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Time.o )
[2 of 4] Compiling Rozklad.Types    ( src/Rozklad/Types.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Types.o ) [Rozklad.Time changed]
[3 of 4] Compiling Rozklad.Parse    ( src/Rozklad/Parse.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Parse.o ) [Rozklad.Types changed]
[4 of 4] Compiling Rozklad.Board    ( src/Rozklad/Board.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Board.o ) [Rozklad.Types changed]

src/Rozklad/Board.hs:16:58: error:
    • Couldn't match expected type ‘ServiceTime’
                  with actual type ‘TimeOfDay’
    • In the second argument of ‘(>=)’, namely ‘from’
      In the expression: stStop st == stop && stDeparture st >= from
      In the first argument of ‘filter’, namely
        ‘(\\ st -> stStop st == stop && stDeparture st >= from)’
   |
16 |   take n . sortOn stDeparture . filter (\\st -> stStop st == stop && stDeparture st >= from)
   |                                                          ^^^^

src/Rozklad/Board.hs:23:27: error:
    • Couldn't match expected type ‘TimeOfDay’
                  with actual type ‘ServiceTime’
    • In the first argument of ‘formatHM’, namely ‘(stDeparture st)’
      In the expression: formatHM (stDeparture st)
      In the first argument of ‘T.unwords’, namely
        ‘[formatHM (stDeparture st), stHeadsign st]’
   |
23 | renderRow st = T.unwords [formatHM (stDeparture st), stHeadsign st]
   |                           ^^^^^^^^^^^^^^^^^^^^^^^^^
Error: cabal: Failed to build rozklad-0.4.1 (lib).
"""), code=1)
s.assistant("Expected: Board.hs still speaks `TimeOfDay` (the `from` argument and `formatHM`). I'll switch it to `ServiceTime` and `formatBoardTime`.")
s.edit(BOARD, """import Data.List (sortOn)
import Data.Text (Text)
import qualified Data.Text as T
import Data.Time (TimeOfDay (..))

import Rozklad.Types

-- | Departures from a stop at or after the given time, earliest first.
departures :: StopId -> TimeOfDay -> Int -> [StopTime] -> [StopTime]
departures stop from n =
  take n . sortOn stDeparture . filter (\\st -> stStop st == stop && stDeparture st >= from)

formatHM :: TimeOfDay -> Text
formatHM (TimeOfDay h m _) = T.pack (pad h <> ":" <> pad m)
  where pad x = if x < 10 then '0' : show x else show x

renderRow :: StopTime -> Text
renderRow st = T.unwords [formatHM (stDeparture st), stHeadsign st]
""", """import Data.List (sortOn)
import Data.Text (Text)
import qualified Data.Text as T

import Rozklad.Time
import Rozklad.Types

-- | Departures from a stop at or after the given service time, earliest first.
departures :: StopId -> ServiceTime -> Int -> [StopTime] -> [StopTime]
departures stop from n =
  take n . sortOn stDeparture . filter (\\st -> stStop st == stop && stDeparture st >= from)

renderRow :: StopTime -> Text
renderRow st = T.unwords [formatBoardTime (stDeparture st), stHeadsign st]
""")
s.bash("cabal build 2>&1 | tail -4", "[4 of 4] Compiling Rozklad.Board    ( src/Rozklad/Board.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Board.o )\nPreprocessing executable 'rozklad' for rozklad-0.4.1..\nBuilding executable 'rozklad' for rozklad-0.4.1..\n[1 of 2] Compiling Main             ( app/Main.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/x/rozklad/build/rozklad/rozklad-tmp/Main.o ) [Rozklad.Board changed]\n")
s.bash("cabal test 2>&1 | grep -B2 -A14 -m1 'error'", """test/Rozklad/ParseSpec.hs:12:36: error:
    • Couldn't match type ‘ServiceTime’ with ‘TimeOfDay’
      Expected: Maybe TimeOfDay
        Actual: Maybe ServiceTime
    • In the first argument of ‘shouldBe’, namely
        ‘parseGtfsTime "07:05:00"’
      In the second argument of ‘($)’, namely
        ‘parseGtfsTime "07:05:00" `shouldBe` Just (TimeOfDay 7 5 0)’
   |
12 |     parseGtfsTime "07:05:00" `shouldBe` Just (TimeOfDay 7 5 0)
   |     ^^^^^^^^^^^^^^^^^^^^^^^^

test/Rozklad/BoardSpec.hs:11:36: error:
    • Couldn't match expected type ‘ServiceTime’
                  with actual type ‘TimeOfDay’""", code=1)
s.assistant("The library and the executable build. The tests still use `TimeOfDay`; updating both specs and adding `TimeSpec` for the parser and the +1 format.")
s.write(PSPEC, """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.ParseSpec (spec) where

import Data.Either (isLeft)
import Test.Hspec

import Rozklad.Parse
import Rozklad.Time

spec :: Spec
spec = do
  describe "parseGtfsTime" $ do
    it "parses a morning time" $
      parseGtfsTime "07:05:00" `shouldBe` Just (fromHM 7 5)
    it "accepts hours past midnight" $
      parseGtfsTime "25:10:00" `shouldBe` Just (fromHM 25 10)
    it "rejects garbage" $
      parseGtfsTime "7h05" `shouldBe` Nothing
  describe "parseStopTimes" $
    it "reports the bad row instead of dropping it" $
      parseStopTimes "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign\\nA,07:00:00,7:0x,1,1,X\\n"
        `shouldSatisfy` isLeft
""")
s.edit(BSPEC, """import Data.Time (TimeOfDay (..))
import Test.Hspec

import Rozklad.Board
import Rozklad.Types

st :: Int -> Int -> StopTime
st h m = StopTime "t1" "7013" (TimeOfDay h m 0) (TimeOfDay h m 0) "Dworzec Centralny"
""", """import Test.Hspec

import Rozklad.Board
import Rozklad.Time
import Rozklad.Types

st :: Int -> Int -> StopTime
st h m = StopTime "t1" "7013" (fromHM h m) (fromHM h m) "Dworzec Centralny"
""")
s.edit(BSPEC, """    map stDeparture (departures "7013" (TimeOfDay 8 0 0) 10 [st 7 50, st 8 10, st 8 5])
      `shouldBe` [TimeOfDay 8 5 0, TimeOfDay 8 10 0]
  it "renders HH:MM and the headsign" $
    renderBoard [st 8 5] `shouldBe` "08:05 Dworzec Centralny\\n"
""", """    map stDeparture (departures "7013" (fromHM 8 0) 10 [st 7 50, st 8 10, st 8 5])
      `shouldBe` [fromHM 8 5, fromHM 8 10]
  it "renders HH:MM and the headsign" $
    renderBoard [st 8 5] `shouldBe` "08:05 Dworzec Centralny\\n"
  it "keeps night departures after midnight, after the evening ones" $
    map stDeparture (departures "7013" (fromHM 23 30) 10 ([st 25 10, st 23 41, st 24 11]))
      `shouldBe` [fromHM 23 41, fromHM 24 11, fromHM 25 10]
  it "renders times past midnight with +1" $
    renderBoard [st 25 10] `shouldBe` "01:10+1 Dworzec Centralny\\n"
""")
s.write(TSPEC, """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.TimeSpec (spec) where

import Test.Hspec

import Rozklad.Time

spec :: Spec
spec = describe "formatBoardTime" $ do
  it "pads hours and minutes" $
    formatBoardTime (fromHM 7 5) `shouldBe` "07:05"
  it "midnight of the next day is 00:00+1" $
    formatBoardTime (fromHM 24 0) `shouldBe` "00:00+1"
  it "25:10 is 01:10+1" $
    formatBoardTime (fromHM 25 10) `shouldBe` "01:10+1"
  it "rejects minutes over 59" $
    parseServiceTime "24:61:00" `shouldBe` Nothing
""")
s.edit(CABAL, """    other-modules:    Rozklad.ParseSpec
                      Rozklad.BoardSpec
""", """    other-modules:    Rozklad.ParseSpec
                      Rozklad.BoardSpec
                      Rozklad.TimeSpec
""")
s.bash("cabal test --test-show-details=direct 2>&1 | tail -34", """Rozklad.Board
  departures
    keeps only the stop and later times [✔]
    renders HH:MM and the headsign [✘]
    keeps night departures after midnight, after the evening ones [✔]
    renders times past midnight with +1 [✘]
Rozklad.Parse
  parseGtfsTime
    parses a morning time [✔]
    accepts hours past midnight [✔]
    rejects garbage [✔]
  parseStopTimes
    reports the bad row instead of dropping it [✔]
Rozklad.Time
  formatBoardTime
    pads hours and minutes [✘]
    midnight of the next day is 00:00+1 [✔]
    25:10 is 01:10+1 [✘]
    rejects minutes over 59 [✔]

Failures:

  test/Rozklad/BoardSpec.hs:17:5:
  1) Rozklad.Board.departures renders HH:MM and the headsign
       expected: "08:05 Dworzec Centralny\\n"
        but got: "08:00 Dworzec Centralny\\n"

  test/Rozklad/TimeSpec.hs:15:36:
  3) Rozklad.Time.formatBoardTime 25:10 is 01:10+1
       expected: "01:10+1"
        but got: "01:00+1"

  To rerun use: --match "/Rozklad.Time/formatBoardTime/25:10 is 01:10+1/"

Randomized with seed 1837264001

Finished in 0.0041 seconds
12 examples, 4 failures
Test suite rozklad-test: FAIL
""", code=1)
s.assistant("All four failures are the minutes: `rest `mod` 60` is the seconds, not the minutes, so every board time shows `:00`. I'll compute hours and minutes with `quotRem`.")
s.edit(TIME, """    (h, m) = (rest `div` 3600, rest `mod` 60)""", """    (h, hRest) = rest `quotRem` 3600
    m = hRest `quot` 60""")
s.bash("cabal test --test-show-details=direct 2>&1 | tail -5", "    rejects minutes over 59 [✔]\n\nFinished in 0.0038 seconds\n12 examples, 0 failures\nTest suite rozklad-test: PASS\n")
s.bash("cabal run -v0 rozklad -- --stop 7013 --from 23:30", "23:41 Bemowo\n23:52 Gocław\n00:11+1 Bemowo\n00:41+1 Bemowo\n01:10+1 Gocław\n01:40+1 Gocław\n02:10+1 Gocław\n02:41+1 Bemowo\n03:10+1 Gocław\n03:41+1 Bemowo\n")
s.assistant(
    "The night buses are on the board now:\n\n"
    "- `Rozklad.Time` has `ServiceTime` (seconds since the service-day start), `parseServiceTime` accepting hours >= 24, and `formatBoardTime` which prints `01:10+1` for 25:10:00.\n"
    "- `Types.hs` is only data (uses `ServiceTime`), no parsing in it.\n"
    "- `parseStopTimes` now returns `Left \"stop_times.txt row N: bad time ...\"` instead of silently dropping rows.\n"
    "- 12 hspec examples pass; stop 7013 from 23:30 shows N32/N44 up to 03:41+1.\n\n"
    "One bug on the way: my minutes computation in `formatBoardTime` took the seconds (`01:00+1` instead of `01:10+1`); fixed with `quotRem`."
)

# ============================================================================================ turn 3
s.user("Super, thank you! The CI runs also hlint, can we keep it with zero hints? Please run it.")
s.read(HLINT)
s.bash("hlint src app test", """src/Rozklad/Parse.hs:33:3-63: Warning: Use zipWithM
Found:
  traverse (uncurry toStopTime) (zip [2 .. ] (V.toList rows))
Perhaps:
  zipWithM toStopTime [2 .. ] (V.toList rows)

test/Rozklad/BoardSpec.hs:24:55-87: Warning: Redundant bracket
Found:
  ([st 25 10, st 23 41, st 24 11])
Perhaps:
  [st 25 10, st 23 41, st 24 11]

2 hints
""", code=1)
s.assistant("Two hints, both in code I wrote today: `zipWithM` in the loader and a redundant bracket in the new board test. Fixing both.")
s.edit(PARSE, """  traverse (uncurry toStopTime) (zip [2 ..] (V.toList rows))""", """  zipWithM toStopTime [2 ..] (V.toList rows)""")
s.edit(PARSE, """import qualified Data.ByteString.Lazy as BL
""", """import Control.Monad (zipWithM)
import qualified Data.ByteString.Lazy as BL
""")
s.edit(BSPEC, """10 ([st 25 10, st 23 41, st 24 11]))""", """10 [st 25 10, st 23 41, st 24 11])""")
s.bash("hlint src app test", "No hints\n")
s.bash("cabal build 2>&1 | grep -i -A6 warn", """src/Rozklad/Board.hs:10:1: warning: [-Wunused-imports]
    The qualified import of ‘Data.Text’ is redundant
      except perhaps to import instances from ‘Data.Text’
    To import instances alone, use: import Data.Text()
   |
10 | import qualified Data.Text as T
   |""")
s.edit(BOARD, """import Data.Text (Text)
import qualified Data.Text as T

import Rozklad.Time""", """import Data.Text (Text)

import Rozklad.Time""")
s.bash("cabal build 2>&1 | grep -ci warn; cabal test 2>&1 | tail -2", "0\n1 of 1 test suites (1 of 1 test cases) passed.\n")
s.assistant("hlint: No hints. Build has no warnings (I removed an unused `Data.Text` import in Board.hs), 12 examples still pass. CI's hlint step runs the same `hlint src app test`.")

# ============================================================================================ turn 4
s.user(
    "Thank you. Now the next thing, the screens team (they make the LED boards on the stops) wants the board as JSON, not the text. "
    "Can you add --json flag? For each departure: the time, the headsign, the trip id. The aeson is fine as dependency, we have it in the freeze file already."
)
s.bash("grep -n aeson cabal.project.freeze", "67:             any.aeson ==2.1.2.1,\n")
s.write(JSON, """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.Json
  ( boardJson
  ) where

import Data.Aeson
import qualified Data.ByteString.Lazy as BL

import Rozklad.Time
import Rozklad.Types

instance ToJSON ServiceTime where
  toJSON t = toJSON (formatBoardTime t)

instance ToJSON StopTime where
  toJSON st = object
    [ "time" .= stDeparture st
    , "headsign" .= stHeadsign st
    , "trip_id" .= stTrip st
    ]

boardJson :: [StopTime] -> BL.ByteString
boardJson = encode
""")
s.edit(CABAL, """                      Rozklad.Time
""", """                      Rozklad.Time
                      Rozklad.Json
""")
s.edit(CABAL, """    build-depends:    base >=4.16 && <4.18,
""", """    build-depends:    base >=4.16 && <4.18,
                      aeson ^>=2.1,
""")
s.bash("cabal build 2>&1 | grep -A8 -m2 'warning\\|error'", """src/Rozklad/Json.hs:12:1: warning: [-Worphans]
    Orphan instance: instance ToJSON ServiceTime
    To avoid this
        move the instance declaration to the module of the class or of the type, or
        wrap the type with a newtype and declare the instance on the new type.
   |
12 | instance ToJSON ServiceTime where
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^...

src/Rozklad/Json.hs:15:1: warning: [-Worphans]
    Orphan instance: instance ToJSON StopTime""")
s.assistant("It builds, but with two `-Worphans` warnings: the instances sit in `Rozklad.Json`, and neither the class nor the types are defined there. Before I go on: shall I move them next to the types?")

# ============================================================================================ turn 5
s.user(
    "Yes please, can we avoid orphan instances completely? We had big pain with them in the other project. Put the instances where the type is. "
    "And one more thing for the JSON, the screens team told me they already parse the GTFS form of the time, so can the JSON have the time like in GTFS, \"25:10:00\", not our \"01:10+1\"? "
    "The +1 is only for the text board."
)
s.edit(TIME, """module Rozklad.Time
  ( ServiceTime (..)
  , parseServiceTime
  , fromHM
  , formatBoardTime
  ) where

import Data.Char (isDigit)
""", """module Rozklad.Time
  ( ServiceTime (..)
  , parseServiceTime
  , fromHM
  , formatBoardTime
  , formatGtfsTime
  ) where

import Control.Monad (guard)
import Data.Aeson (ToJSON (..))
import Data.Char (isDigit)
""")
s.edit(TIME, """-- | HH:MM for the board; times past midnight""", """-- | The GTFS form, HH:MM:SS with hours past 24 kept (25:10:00); this is what JSON carries.
formatGtfsTime :: ServiceTime -> Text
formatGtfsTime (ServiceTime secs) = pad h <> ":" <> pad m <> ":" <> pad sec
  where
    (h, r) = secs `quotRem` 3600
    (m, sec) = r `quotRem` 60
    pad x = T.justifyRight 2 '0' (T.pack (show x))

instance ToJSON ServiceTime where
  toJSON = toJSON . formatGtfsTime

-- | HH:MM for the board; times past midnight""")
s.edit(TYPES, """import Data.Text (Text)

import Rozklad.Time (ServiceTime)
""", """{-# LANGUAGE OverloadedStrings #-}

import Data.Aeson (ToJSON (..), object, (.=))
import Data.Text (Text)

import Rozklad.Time (ServiceTime)
""")
s.edit(TYPES, """  } deriving (Eq, Show)
""", """  } deriving (Eq, Show)

-- | The shape the stop screens read (keys are snake_case).
instance ToJSON StopTime where
  toJSON st = object
    [ "time" .= stDeparture st
    , "headsign" .= stHeadsign st
    , "trip_id" .= stTrip st
    ]
""")
s.bash("cabal build 2>&1 | grep -A12 -m2 'warning\\|error'", """src/Rozklad/Types.hs:7:1: warning: [-Wmisplaced-pragmas]
    Misplaced LANGUAGE pragma
  |
7 | {-# LANGUAGE OverloadedStrings #-}
  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

src/Rozklad/Types.hs:29:7: error:
    • Couldn't match type ‘[Char]’ with ‘Key’
      Expected: Key
        Actual: String
    • In the first argument of ‘(.=)’, namely ‘"time"’
      In the expression: "time" .= stDeparture st
      In the first argument of ‘object’, namely
        ‘["time" .= stDeparture st, "headsign" .= stHeadsign st,
          "trip_id" .= stTrip st]’
   |
29 |     [ "time" .= stDeparture st
   |       ^^^^^^""", code=1)
s.read(TYPES)
s.assistant("The `Key` vs `String` error is a follow-up of the warning above it: I put the `LANGUAGE OverloadedStrings` pragma after the `module` header, where GHC ignores it, so the JSON keys are plain `String`s. Moving the pragma to the top of the file.")
s.edit(TYPES, """module Rozklad.Types
  ( StopTime (..)
  , StopId
  , TripId
  ) where

{-# LANGUAGE OverloadedStrings #-}

""", """{-# LANGUAGE OverloadedStrings #-}
module Rozklad.Types
  ( StopTime (..)
  , StopId
  , TripId
  ) where

""")
s.write(JSON, """module Rozklad.Json
  ( boardJson
  ) where

import Data.Aeson (encode)
import qualified Data.ByteString.Lazy as BL

import Rozklad.Types

-- | The board as a JSON array; the ToJSON instances live next to their types.
boardJson :: [StopTime] -> BL.ByteString
boardJson = encode
""")
s.bash("cabal build 2>&1 | grep -c 'Worphans'; cabal build 2>&1 | tail -2", "0\n[4 of 5] Compiling Rozklad.Json     ( src/Rozklad/Json.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Json.o )\n[5 of 5] Compiling Rozklad.Board    ( src/Rozklad/Board.hs, dist-newstyle/build/x86_64-linux/ghc-9.4.8/rozklad-0.4.1/build/Rozklad/Board.o )\n")
s.edit(MAIN, """data Opts = Opts
  { optFeed  :: FilePath
  , optStop  :: String
  , optFrom  :: String
  , optCount :: Int
  }
""", """data Opts = Opts
  { optFeed  :: FilePath
  , optStop  :: String
  , optFrom  :: String
  , optCount :: Int
  , optJson  :: Bool
  }
""")
s.edit(MAIN, """  <*> option auto (long "count" <> value 10)
""", """  <*> option auto (long "count" <> value 10)
  <*> switch (long "json" <> help "print the board as a JSON array (times in GTFS form)")
""")
s.edit(MAIN, """      Just from -> TIO.putStr (renderBoard (departures (T.pack (optStop o)) from (optCount o) sts))
""", """      Just from -> do
        let board = departures (T.pack (optStop o)) from (optCount o) sts
        if optJson o then BL.putStr (boardJson board) else TIO.putStr (renderBoard board)
""")
s.edit(MAIN, """import Rozklad.Board
import Rozklad.Parse
""", """import Rozklad.Board
import Rozklad.Json
import Rozklad.Parse
""")
s.bash("cabal run -v0 rozklad -- --stop 7013 --from 24:00 --count 3 --json", "[{\"headsign\":\"Bemowo\",\"time\":\"24:11:00\",\"trip_id\":\"N32_3_0014\"},{\"headsign\":\"Bemowo\",\"time\":\"24:41:00\",\"trip_id\":\"N32_3_0016\"},{\"headsign\":\"Gocław\",\"time\":\"25:10:00\",\"trip_id\":\"N44_1_0003\"}]")
s.bash("cabal run -v0 rozklad -- --stop 7013 --from 24:00 --count 3", "00:11+1 Bemowo\n00:41+1 Bemowo\n01:10+1 Gocław\n")
s.edit(TSPEC, """  it "rejects minutes over 59" $""", """  it "GTFS form keeps hours past 24" $
    formatGtfsTime (fromHM 25 10) `shouldBe` "25:10:00"
  it "rejects minutes over 59" $""")
s.bash("cabal test --test-show-details=direct 2>&1 | tail -3; hlint src app test", "Finished in 0.0040 seconds\n13 examples, 0 failures\nTest suite rozklad-test: PASS\nNo hints\n")
s.assistant(
    "Done, and no orphans any more:\n\n"
    "- `instance ToJSON ServiceTime` is in `Rozklad.Time`, `instance ToJSON StopTime` in `Rozklad.Types` (the type's modules); `Rozklad.Json` only has `boardJson = encode`.\n"
    "- `--json` prints an array of `{\"time\", \"headsign\", \"trip_id\"}`; `time` is the GTFS form (`25:10:00`), the text board keeps `01:10+1`.\n"
    "- aeson ^>=2.1 added to the library (the freeze file pins 2.1.2.1). 13 examples pass, hlint no hints, no -Worphans warnings."
)

# ============================================================================================ turn 6
s.user(
    "Very nice. One more question from me: the real feed, not the sample, is big (data/ztm-full, it's not in git). How long it takes now? On the server it was ok before, I am afraid it is slower now with the Text splitting."
)
s.bash("ls -la data/ztm-full/stop_times.txt; wc -l data/ztm-full/stop_times.txt", "-rw-r--r-- 1 kasia kasia 148203117 Apr 13 22:10 data/ztm-full/stop_times.txt\n2406118 data/ztm-full/stop_times.txt\n")
s.bash("git stash -q && cabal build -v0 && cabal list-bin rozklad | xargs -I{} sh -c '{} --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s 2>&1 | grep -E \"Total|total alloc|maximum resid\"'; git stash pop -q", "  11,904,331,208 bytes allocated in the heap\n     3,117,582,336 bytes maximum residency (9 sample(s))\n  Total   time   14.21s  ( 14.38s elapsed)\n")
s.bash("cabal build -v0 && $(cabal list-bin rozklad) --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s 2>&1 | grep -E 'Total|total alloc|maximum resid'", "rozklad: stop_times.txt row 1884207: bad time 7:5:00\n", code=1)
s.bash("sed -n '1884207p' data/ztm-full/stop_times.txt; awk -F, 'NR>1 && $2 !~ /^[0-9]+:[0-9][0-9]:[0-9][0-9]$/' data/ztm-full/stop_times.txt | wc -l", "KM9_2_0441,7:5:00,7:5:00,R-2211,3,Legionowo\n38\n")
s.assistant(
    "Interesting: the full feed has 38 rows with single-digit minutes like `7:5:00` (all trips `KM...`, the regional rail agency, stop ids `R-...`). Before, these were also silently dropped by `mapMaybe`; now the strict parser stops the whole load at row 1,884,207. "
    "GTFS says minutes are two digits, so the feed is wrong, but stopping everything for 38 rows is bad for the server. What do you prefer: accept one-digit minutes, or skip such rows with a warning on stderr?"
)
s.user("Hmm. I think accept it, the KM feed is like this since years and they will not fix it. But only for minutes and hours, seconds we keep strict? Actually no, simpler, accept 1 or 2 digits everywhere.")
s.edit(TIME, """-- | Parses H:MM:SS or HH:MM:SS; hours may be 24 or more.
parseServiceTime :: Text -> Maybe ServiceTime
parseServiceTime t = case T.splitOn ":" t of
  [h, m, sec] | T.length m == 2, T.length sec == 2, all (T.all isDigit) [h, m, sec] -> do""", """-- | Parses H:MM:SS or HH:MM:SS; hours may be 24 or more. Minutes and seconds may also have
-- one digit ("7:5:00"): the KM regional feed writes them like that.
parseServiceTime :: Text -> Maybe ServiceTime
parseServiceTime t = case T.splitOn ":" t of
  [h, m, sec] | all (\\x -> T.length x `elem` [1, 2]) [m, sec], all (T.all isDigit) [h, m, sec] -> do""")
s.edit(TSPEC, """  it "rejects minutes over 59" $""", """  it "accepts one-digit minutes (KM feed)" $
    parseServiceTime "7:5:00" `shouldBe` Just (fromHM 7 5)
  it "rejects minutes over 59" $""")
s.bash("cabal test 2>&1 | tail -2 && cabal build -v0 && $(cabal list-bin rozklad) --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s 2>&1 | grep -E 'Total|total alloc|maximum resid'", "1 of 1 test suites (1 of 1 test cases) passed.\n  19,446,102,840 bytes allocated in the heap\n     3,402,917,888 bytes maximum residency (9 sample(s))\n  Total   time   21.67s  ( 21.90s elapsed)\n")
s.assistant(
    "The full feed loads again, with 1- or 2-digit minutes and seconds accepted (new test for `7:5:00`).\n\n"
    "Speed: it is slower, as you feared: 21.67 s vs 14.21 s before, 19.4 GB allocated and 3.4 GB max residency. The cost is the `Text` round trip per time field (cassava gives `Text`, then `splitOn` allocates three pieces). I'll parse the time fields directly from the `ByteString` instead."
)
s.edit(PARSE, """data Row = Row Text Text Text Text Text
""", """-- | Times stay raw ByteString until parsed: no Text round trip (2.4M rows in the full feed).
data Row = Row Text Text B.ByteString B.ByteString Text
""")
s.edit(PARSE, """import qualified Data.ByteString.Lazy as BL
""", """import qualified Data.ByteString.Char8 as B
import qualified Data.ByteString.Lazy as BL
""")
s.edit(PARSE, """    time t = maybe (Left ("stop_times.txt row " <> show n <> ": bad time " <> T.unpack t)) Right (parseGtfsTime t)""", """    time t = maybe (Left ("stop_times.txt row " <> show n <> ": bad time " <> B.unpack t)) Right (parseServiceTimeBS t)""")
s.edit(TIME, """  , formatGtfsTime
  ) where
""", """  , formatGtfsTime
  , parseServiceTimeBS
  ) where

import Control.Monad (guard)
import qualified Data.ByteString.Char8 as B
""")
s.edit(TIME, """-- | The GTFS form, HH:MM:SS""", """-- | Same as 'parseServiceTime' on raw bytes, for the loader's hot path.
parseServiceTimeBS :: B.ByteString -> Maybe ServiceTime
parseServiceTimeBS b = case B.split ':' b of
  [h, m, sec] -> do
    (hh, r1) <- B.readInt h
    (mm, r2) <- B.readInt m
    (ss, r3) <- B.readInt sec
    guard (B.null r1 && B.null r2 && B.null r3 && mm >= 0 && mm < 60 && ss >= 0 && ss < 60 && hh >= 0)
    pure (ServiceTime (hh * 3600 + mm * 60 + ss))
  _ -> Nothing

-- | The GTFS form, HH:MM:SS""")
s.bash("cabal build -v0 2>&1 | head -12", """src/Rozklad/Parse.hs:16:1: warning: [-Wunused-imports]
    The import of ‘Data.Text’ is redundant
      except perhaps to import instances from ‘Data.Text’
    To import instances alone, use: import Data.Text()
   |
16 | import qualified Data.Text as T
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^""")
s.edit(PARSE, """import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Vector as V""", """import Data.Text (Text)
import qualified Data.Vector as V""")
s.bash("cabal test 2>&1 | tail -1 && cabal build -v0 && for i in 1 2 3; do $(cabal list-bin rozklad) --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s 2>&1 | grep -E 'Total'; done", "1 of 1 test suites (1 of 1 test cases) passed.\n  Total   time    9.84s  (  9.97s elapsed)\n  Total   time    9.71s  (  9.85s elapsed)\n  Total   time    9.90s  ( 10.02s elapsed)\n")
s.bash("$(cabal list-bin rozklad) --feed data/ztm-full --stop 7013 --from 23:30 +RTS -s 2>&1 | grep -E 'total alloc|maximum resid|bytes allocated'", "   8,215,770,104 bytes allocated in the heap\n   2,688,401,408 bytes maximum residency (8 sample(s))\n")
s.bash("hlint src app test", "No hints\n")
s.assistant(
    "Faster than before the change now: the full feed (2,406,118 lines) loads and prints the board in about 9.8 s (9.71-9.90 s over 3 runs), against 14.21 s on the old code and 21.67 s with the Text version. Max residency 2.69 GB (was 3.12 GB).\n\n"
    "Times are parsed straight from the `ByteString` (`parseServiceTimeBS`, `B.readInt`), one or two digits accepted everywhere as you decided. Tests pass, hlint no hints."
)

# ============================================================================================ turn 7
s.user("Wow, good. 2.7 GB is still a lot for the server with 4 GB, but this is for later, not today. Please make the commit, and write in CHANGELOG.")
s.edit(CHLOG, """# Revision history for rozklad
""", """# Revision history for rozklad

## 0.5.0 -- unreleased

* Night departures after midnight (GTFS times from 24:00:00) are no longer dropped; the board shows them as `01:10+1`.
* Rows with a time that does not parse are an error with the row number, not silently skipped.
* One-digit minutes and seconds (`7:5:00`, KM regional feed) are accepted.
* `--json`: the board as a JSON array of `time` (GTFS form, e.g. `25:10:00`), `headsign`, `trip_id`.
* Times parsed from ByteString: full feed ~9.8 s instead of ~14.2 s.
""")
s.edit(CABAL, "version:            0.4.1\n", "version:            0.5.0\n")
s.bash("git add -A && git commit -qm 'ServiceTime: keep night departures past 24:00, --json output, faster time parsing' && git log --oneline -2", "b82e5f3 ServiceTime: keep night departures past 24:00, --json output, faster time parsing\ne41c0d2 board: --count option\n")
s.bash("git status --short; git branch --show-current", "main\n")
s.assistant("Committed as b82e5f3 on `main` (not pushed), version bumped to 0.5.0 in rozklad.cabal, CHANGELOG has the 0.5.0 entry.")

# ============================================================================================ turn 8
s.user(
    "Thanks. Last for today, please check one thing for me: the calendar_dates.txt, we don't read it at all, right? On holidays the board shows the normal weekday buses. "
    "Don't implement it now, only tell me how big it is."
)
s.bash("grep -rn 'calendar' src app | head; wc -l data/ztm-sample/calendar_dates.txt; head -4 data/ztm-sample/calendar_dates.txt", "2406:\n35 data/ztm-sample/calendar_dates.txt\nservice_id,date,exception_type\nDP,20260501,2\nSW,20260501,1\nDP,20260503,2\n")
s.bash("grep -rn 'service_id\\|trips.txt' src app | head -3; head -2 data/ztm-sample/trips.txt", "route_id,service_id,trip_id,trip_headsign,direction_id\nN32,NS,N32_3_0012,Bemowo,0\n")
s.assistant(
    "Right, nothing reads `calendar.txt`, `calendar_dates.txt` or even `trips.txt`: the board takes every trip of `stop_times.txt`, whatever its service day. So today it mixes weekday (DP), Saturday/holiday (SW) and night (NS) services.\n\n"
    "How big it would be:\n"
    "1. Load `trips.txt` (trip_id -> service_id) and `calendar.txt` (weekday flags, start/end dates).\n"
    "2. Apply `calendar_dates.txt` exceptions: type 1 adds the service on that date, type 2 removes it (e.g. 2026-05-01: DP removed, SW added).\n"
    "3. `--date YYYY-MM-DD` option; filter trips by active service. Night trips after midnight belong to the previous service day, which `ServiceTime` already models.\n\n"
    "Roughly two new modules and about a day of work with tests."
)
s.user("OK, this we do next week, I will make a ticket. For now that's all, thank you!")

s.save(HERE / "session.jsonl")
