CREATE TABLE "funding_rate_coverage" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"from_ms" bigint NOT NULL,
	"to_ms" bigint NOT NULL,
	CONSTRAINT "funding_rate_coverage_exchange_symbol_pk" PRIMARY KEY("exchange","symbol")
);
--> statement-breakpoint
CREATE TABLE "funding_rates" (
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"funding_time_ms" bigint NOT NULL,
	"rate" double precision NOT NULL,
	CONSTRAINT "funding_rates_exchange_symbol_funding_time_ms_pk" PRIMARY KEY("exchange","symbol","funding_time_ms")
);
