CREATE TABLE "candles" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"open_time_ms" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" double precision NOT NULL,
	CONSTRAINT "candles_exchange_symbol_timeframe_open_time_ms_pk" PRIMARY KEY("exchange","symbol","timeframe","open_time_ms")
);
