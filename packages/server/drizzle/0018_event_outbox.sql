CREATE TABLE "event_cursors" (
	"reader" text PRIMARY KEY NOT NULL,
	"last_id" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "event_outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE INDEX "event_outbox_unpublished_idx" ON "event_outbox" USING btree ("published_at","id");