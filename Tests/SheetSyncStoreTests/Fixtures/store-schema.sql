-- table grdb_migrations
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);

-- table sync_applying
CREATE TABLE "sync_applying" ("id" INTEGER PRIMARY KEY);

-- table sync_change_counter
CREATE TABLE "sync_change_counter" ("id" INTEGER PRIMARY KEY CHECK (id = 1), "value" INTEGER NOT NULL);

-- table sync_state
CREATE TABLE "sync_state" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);

-- table sync_base
CREATE TABLE "sync_base" ("tab" TEXT NOT NULL CHECK (tab IN ('Transactions', 'Receipts', 'Categories', 'RecurringRules', 'Settings')), "key" TEXT NOT NULL, "fields" TEXT NOT NULL CHECK (json_valid(fields)), raw_hash INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("tab", "key"));

-- table sync_tombstones
CREATE TABLE "sync_tombstones" ("tab" TEXT NOT NULL CHECK (tab IN ('Transactions', 'Receipts', 'Categories', 'RecurringRules', 'Settings')), "key" TEXT NOT NULL, "deletedAt" TEXT NOT NULL, PRIMARY KEY ("tab", "key"));

-- table sync_rejected
CREATE TABLE "sync_rejected" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "tab" TEXT NOT NULL CHECK (tab IN ('Transactions', 'Receipts', 'Categories', 'RecurringRules', 'Settings')), "row" INTEGER NOT NULL, "key" TEXT, "message" TEXT NOT NULL, "hint" TEXT, "rawCells" TEXT NOT NULL CHECK (json_valid(rawCells)), "firstSeenAt" TEXT NOT NULL, "code" TEXT);

-- table sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);

-- table sync_conflicts
CREATE TABLE "sync_conflicts" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "tab" TEXT NOT NULL CHECK (tab IN ('Transactions', 'Receipts', 'Categories', 'RecurringRules', 'Settings')), "key" TEXT NOT NULL, "field" TEXT NOT NULL, "losingValue" TEXT NOT NULL, "winningValue" TEXT NOT NULL, "losingModifiedAt" TEXT NOT NULL, "winningModifiedAt" TEXT NOT NULL, "resolvedAt" TEXT NOT NULL);

-- trigger sync_conflicts_append_only
CREATE TRIGGER sync_conflicts_append_only BEFORE UPDATE ON sync_conflicts
BEGIN SELECT RAISE(ABORT, 'sync_conflicts is append-only'); END;

-- table transactions
CREATE TABLE "transactions" ("transactionId" TEXT PRIMARY KEY NOT NULL, "type" TEXT NOT NULL, "date" TEXT NOT NULL, "year" INTEGER NOT NULL, "month" INTEGER NOT NULL, "amount" TEXT NOT NULL, "category" TEXT NOT NULL, "tagsCSV" TEXT, "note" TEXT, "paidFlag" TEXT, "reimbursedFlag" TEXT, "recurringRuleId" TEXT, "createdAt" TEXT NOT NULL, "lastModifiedAt" TEXT NOT NULL, CONSTRAINT "transactionId must not be empty" CHECK ("transactionId" <> ''), CONSTRAINT "transactionId must be a UUID" CHECK ("transactionId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "type must be one of expense, income" CHECK ("type" IN ('expense', 'income')), CONSTRAINT "date must be a real date YYYY-MM-DD" CHECK (date("date", '+0 days') IS "date"), CONSTRAINT "year must be between 1 and 9999" CHECK ("year" BETWEEN 1 AND 9999), CONSTRAINT "month must be between 1 and 12" CHECK ("month" BETWEEN 1 AND 12), CONSTRAINT "amount must be a non-negative decimal like 12.50" CHECK ("amount" GLOB '[0-9]*' AND "amount" NOT GLOB '*[^0-9.]*' AND "amount" NOT GLOB '*.*.*' AND "amount" NOT GLOB '*.'), CONSTRAINT "paidFlag must be one of paid, unpaid" CHECK ("paidFlag" IN ('paid', 'unpaid')), CONSTRAINT "reimbursedFlag must be one of reimbursed, unreimbursed" CHECK ("reimbursedFlag" IN ('reimbursed', 'unreimbursed')), CONSTRAINT "recurringRuleId must be a UUID" CHECK ("recurringRuleId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "createdAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt", '+0 days') IS "createdAt"), CONSTRAINT "lastModifiedAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "lastModifiedAt", '+0 days') IS "lastModifiedAt"));

-- trigger transactions_fix_insert
CREATE TRIGGER "transactions_fix_insert" BEFORE INSERT ON "transactions"
WHEN NEW."transactionId" <> lower(NEW."transactionId") OR NEW."transactionId" IS NULL OR NEW."recurringRuleId" <> lower(NEW."recurringRuleId") OR coalesce(NEW."createdAt", '') = '' OR coalesce(NEW."lastModifiedAt", '') = '' OR (NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND (NEW."year" IS NOT CAST(substr(NEW."date", 1, 4) AS INTEGER) OR NEW."month" IS NOT CAST(substr(NEW."date", 6, 2) AS INTEGER)))
BEGIN
  INSERT INTO "transactions" ("transactionId", "type", "date", "year", "month", "amount", "category", "tagsCSV", "note", "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt")
  VALUES (coalesce(lower(NEW."transactionId"), lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))), NEW."type", NEW."date", CASE WHEN NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN CAST(substr(NEW."date", 1, 4) AS INTEGER) ELSE NEW."year" END, CASE WHEN NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN CAST(substr(NEW."date", 6, 2) AS INTEGER) ELSE NEW."month" END, NEW."amount", NEW."category", NEW."tagsCSV", NEW."note", NEW."paidFlag", NEW."reimbursedFlag", lower(NEW."recurringRuleId"), CASE WHEN coalesce(NEW."createdAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."createdAt" END, CASE WHEN coalesce(NEW."lastModifiedAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."lastModifiedAt" END);
  SELECT RAISE(IGNORE);
END;

-- trigger transactions_touch
CREATE TRIGGER "transactions_touch" AFTER UPDATE ON "transactions"
WHEN NEW."lastModifiedAt" IS OLD."lastModifiedAt"
  AND (NEW."transactionId" IS NOT OLD."transactionId" OR NEW."type" IS NOT OLD."type" OR NEW."date" IS NOT OLD."date" OR NEW."year" IS NOT OLD."year" OR NEW."month" IS NOT OLD."month" OR NEW."amount" IS NOT OLD."amount" OR NEW."category" IS NOT OLD."category" OR NEW."tagsCSV" IS NOT OLD."tagsCSV" OR NEW."note" IS NOT OLD."note" OR NEW."paidFlag" IS NOT OLD."paidFlag" OR NEW."reimbursedFlag" IS NOT OLD."reimbursedFlag" OR NEW."recurringRuleId" IS NOT OLD."recurringRuleId" OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."lastModifiedAt" IS NOT OLD."lastModifiedAt")
  AND NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE "transactions" SET "lastModifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE rowid = NEW.rowid;
END;

-- trigger transactions_rekey
CREATE TRIGGER "transactions_rekey" AFTER UPDATE OF "transactionId" ON "transactions"
WHEN NEW."transactionId" IS NOT OLD."transactionId"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Transactions', OLD."transactionId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
  DELETE FROM sync_tombstones WHERE tab = 'Transactions' AND key = NEW."transactionId";
END;

-- trigger transactions_untombstone
CREATE TRIGGER "transactions_untombstone" AFTER INSERT ON "transactions"
BEGIN
  DELETE FROM sync_tombstones WHERE tab = 'Transactions' AND key = NEW."transactionId";
END;

-- trigger transactions_tombstone
CREATE TRIGGER "transactions_tombstone" AFTER DELETE ON "transactions"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Transactions', OLD."transactionId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
END;

-- trigger transactions_fix_update
CREATE TRIGGER "transactions_fix_update" BEFORE UPDATE ON "transactions"
WHEN NEW."transactionId" <> lower(NEW."transactionId") OR NEW."recurringRuleId" <> lower(NEW."recurringRuleId") OR (NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND (NEW."year" IS NOT CAST(substr(NEW."date", 1, 4) AS INTEGER) OR NEW."month" IS NOT CAST(substr(NEW."date", 6, 2) AS INTEGER)))
BEGIN
  UPDATE "transactions" SET "transactionId" = lower(NEW."transactionId"), "type" = NEW."type", "date" = NEW."date", "year" = CASE WHEN NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN CAST(substr(NEW."date", 1, 4) AS INTEGER) ELSE NEW."year" END, "month" = CASE WHEN NEW."date" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN CAST(substr(NEW."date", 6, 2) AS INTEGER) ELSE NEW."month" END, "amount" = NEW."amount", "category" = NEW."category", "tagsCSV" = NEW."tagsCSV", "note" = NEW."note", "paidFlag" = NEW."paidFlag", "reimbursedFlag" = NEW."reimbursedFlag", "recurringRuleId" = lower(NEW."recurringRuleId"), "createdAt" = NEW."createdAt", "lastModifiedAt" = NEW."lastModifiedAt"
  WHERE rowid = OLD.rowid;
  SELECT RAISE(IGNORE);
END;

-- table receipts
CREATE TABLE "receipts" ("receiptId" TEXT PRIMARY KEY NOT NULL, "transactionId" TEXT NOT NULL, "driveFileId" TEXT NOT NULL, "fileName" TEXT NOT NULL, "createdAt" TEXT NOT NULL, "lastModifiedAt" TEXT NOT NULL, CONSTRAINT "receiptId must not be empty" CHECK ("receiptId" <> ''), CONSTRAINT "receiptId must be a UUID" CHECK ("receiptId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "transactionId must be a UUID" CHECK ("transactionId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "createdAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt", '+0 days') IS "createdAt"), CONSTRAINT "lastModifiedAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "lastModifiedAt", '+0 days') IS "lastModifiedAt"));

-- trigger receipts_fix_insert
CREATE TRIGGER "receipts_fix_insert" BEFORE INSERT ON "receipts"
WHEN NEW."receiptId" <> lower(NEW."receiptId") OR NEW."receiptId" IS NULL OR NEW."transactionId" <> lower(NEW."transactionId") OR coalesce(NEW."createdAt", '') = '' OR coalesce(NEW."lastModifiedAt", '') = ''
BEGIN
  INSERT INTO "receipts" ("receiptId", "transactionId", "driveFileId", "fileName", "createdAt", "lastModifiedAt")
  VALUES (coalesce(lower(NEW."receiptId"), lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))), lower(NEW."transactionId"), NEW."driveFileId", NEW."fileName", CASE WHEN coalesce(NEW."createdAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."createdAt" END, CASE WHEN coalesce(NEW."lastModifiedAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."lastModifiedAt" END);
  SELECT RAISE(IGNORE);
END;

-- trigger receipts_touch
CREATE TRIGGER "receipts_touch" AFTER UPDATE ON "receipts"
WHEN NEW."lastModifiedAt" IS OLD."lastModifiedAt"
  AND (NEW."receiptId" IS NOT OLD."receiptId" OR NEW."transactionId" IS NOT OLD."transactionId" OR NEW."driveFileId" IS NOT OLD."driveFileId" OR NEW."fileName" IS NOT OLD."fileName" OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."lastModifiedAt" IS NOT OLD."lastModifiedAt")
  AND NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE "receipts" SET "lastModifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE rowid = NEW.rowid;
END;

-- trigger receipts_rekey
CREATE TRIGGER "receipts_rekey" AFTER UPDATE OF "receiptId" ON "receipts"
WHEN NEW."receiptId" IS NOT OLD."receiptId"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Receipts', OLD."receiptId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
  DELETE FROM sync_tombstones WHERE tab = 'Receipts' AND key = NEW."receiptId";
END;

-- trigger receipts_untombstone
CREATE TRIGGER "receipts_untombstone" AFTER INSERT ON "receipts"
BEGIN
  DELETE FROM sync_tombstones WHERE tab = 'Receipts' AND key = NEW."receiptId";
END;

-- trigger receipts_tombstone
CREATE TRIGGER "receipts_tombstone" AFTER DELETE ON "receipts"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Receipts', OLD."receiptId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
END;

-- trigger receipts_fix_update
CREATE TRIGGER "receipts_fix_update" BEFORE UPDATE ON "receipts"
WHEN NEW."receiptId" <> lower(NEW."receiptId") OR NEW."transactionId" <> lower(NEW."transactionId")
BEGIN
  UPDATE "receipts" SET "receiptId" = lower(NEW."receiptId"), "transactionId" = lower(NEW."transactionId"), "driveFileId" = NEW."driveFileId", "fileName" = NEW."fileName", "createdAt" = NEW."createdAt", "lastModifiedAt" = NEW."lastModifiedAt"
  WHERE rowid = OLD.rowid;
  SELECT RAISE(IGNORE);
END;

-- table categories
CREATE TABLE "categories" ("name" TEXT PRIMARY KEY NOT NULL, "type" TEXT NOT NULL, "emoji" TEXT, "colorHex" TEXT, "isActive" INTEGER NOT NULL, "sortOrder" INTEGER, "createdAt" TEXT NOT NULL, "lastModifiedAt" TEXT NOT NULL, CONSTRAINT "name must not be empty" CHECK ("name" <> ''), CONSTRAINT "type must be one of expense, income, both" CHECK ("type" IN ('expense', 'income', 'both')), CONSTRAINT "isActive must be 0 or 1" CHECK ("isActive" IN (0, 1)), CONSTRAINT "createdAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt", '+0 days') IS "createdAt"), CONSTRAINT "lastModifiedAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "lastModifiedAt", '+0 days') IS "lastModifiedAt"));

-- trigger categories_fix_insert
CREATE TRIGGER "categories_fix_insert" BEFORE INSERT ON "categories"
WHEN coalesce(NEW."createdAt", '') = '' OR coalesce(NEW."lastModifiedAt", '') = ''
BEGIN
  INSERT INTO "categories" ("name", "type", "emoji", "colorHex", "isActive", "sortOrder", "createdAt", "lastModifiedAt")
  VALUES (NEW."name", NEW."type", NEW."emoji", NEW."colorHex", NEW."isActive", NEW."sortOrder", CASE WHEN coalesce(NEW."createdAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."createdAt" END, CASE WHEN coalesce(NEW."lastModifiedAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."lastModifiedAt" END);
  SELECT RAISE(IGNORE);
END;

-- trigger categories_touch
CREATE TRIGGER "categories_touch" AFTER UPDATE ON "categories"
WHEN NEW."lastModifiedAt" IS OLD."lastModifiedAt"
  AND (NEW."name" IS NOT OLD."name" OR NEW."type" IS NOT OLD."type" OR NEW."emoji" IS NOT OLD."emoji" OR NEW."colorHex" IS NOT OLD."colorHex" OR NEW."isActive" IS NOT OLD."isActive" OR NEW."sortOrder" IS NOT OLD."sortOrder" OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."lastModifiedAt" IS NOT OLD."lastModifiedAt")
  AND NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE "categories" SET "lastModifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE rowid = NEW.rowid;
END;

-- trigger categories_rekey
CREATE TRIGGER "categories_rekey" AFTER UPDATE OF "name" ON "categories"
WHEN NEW."name" IS NOT OLD."name"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Categories', OLD."name", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
  DELETE FROM sync_tombstones WHERE tab = 'Categories' AND key = NEW."name";
END;

-- trigger categories_untombstone
CREATE TRIGGER "categories_untombstone" AFTER INSERT ON "categories"
BEGIN
  DELETE FROM sync_tombstones WHERE tab = 'Categories' AND key = NEW."name";
END;

-- trigger categories_tombstone
CREATE TRIGGER "categories_tombstone" AFTER DELETE ON "categories"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Categories', OLD."name", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
END;

-- table recurring_rules
CREATE TABLE "recurring_rules" ("recurringRuleId" TEXT PRIMARY KEY NOT NULL, "isEnabled" INTEGER NOT NULL, "type" TEXT NOT NULL, "amount" TEXT NOT NULL, "category" TEXT NOT NULL, "tagsCSV" TEXT, "note" TEXT, "startDate" TEXT NOT NULL, "cadence" TEXT NOT NULL, "interval" INTEGER NOT NULL, "endDate" TEXT, "lastGeneratedDate" TEXT, "createdAt" TEXT NOT NULL, "lastModifiedAt" TEXT NOT NULL, CONSTRAINT "recurringRuleId must not be empty" CHECK ("recurringRuleId" <> ''), CONSTRAINT "recurringRuleId must be a UUID" CHECK ("recurringRuleId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "isEnabled must be 0 or 1" CHECK ("isEnabled" IN (0, 1)), CONSTRAINT "type must be one of expense, income" CHECK ("type" IN ('expense', 'income')), CONSTRAINT "amount must be a non-negative decimal like 12.50" CHECK ("amount" GLOB '[0-9]*' AND "amount" NOT GLOB '*[^0-9.]*' AND "amount" NOT GLOB '*.*.*' AND "amount" NOT GLOB '*.'), CONSTRAINT "startDate must be a real date YYYY-MM-DD" CHECK (date("startDate", '+0 days') IS "startDate"), CONSTRAINT "cadence must be one of daily, weekly, monthly, yearly" CHECK ("cadence" IN ('daily', 'weekly', 'monthly', 'yearly')), CONSTRAINT "interval must be between 1 and 100000" CHECK ("interval" BETWEEN 1 AND 100000), CONSTRAINT "endDate must be a real date YYYY-MM-DD" CHECK (date("endDate", '+0 days') IS "endDate"), CONSTRAINT "lastGeneratedDate must be a real date YYYY-MM-DD" CHECK (date("lastGeneratedDate", '+0 days') IS "lastGeneratedDate"), CONSTRAINT "createdAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt", '+0 days') IS "createdAt"), CONSTRAINT "lastModifiedAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "lastModifiedAt", '+0 days') IS "lastModifiedAt"));

-- trigger recurring_rules_fix_insert
CREATE TRIGGER "recurring_rules_fix_insert" BEFORE INSERT ON "recurring_rules"
WHEN NEW."recurringRuleId" <> lower(NEW."recurringRuleId") OR NEW."recurringRuleId" IS NULL OR coalesce(NEW."createdAt", '') = '' OR coalesce(NEW."lastModifiedAt", '') = ''
BEGIN
  INSERT INTO "recurring_rules" ("recurringRuleId", "isEnabled", "type", "amount", "category", "tagsCSV", "note", "startDate", "cadence", "interval", "endDate", "lastGeneratedDate", "createdAt", "lastModifiedAt")
  VALUES (coalesce(lower(NEW."recurringRuleId"), lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))), NEW."isEnabled", NEW."type", NEW."amount", NEW."category", NEW."tagsCSV", NEW."note", NEW."startDate", NEW."cadence", NEW."interval", NEW."endDate", NEW."lastGeneratedDate", CASE WHEN coalesce(NEW."createdAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."createdAt" END, CASE WHEN coalesce(NEW."lastModifiedAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."lastModifiedAt" END);
  SELECT RAISE(IGNORE);
END;

-- trigger recurring_rules_touch
CREATE TRIGGER "recurring_rules_touch" AFTER UPDATE ON "recurring_rules"
WHEN NEW."lastModifiedAt" IS OLD."lastModifiedAt"
  AND (NEW."recurringRuleId" IS NOT OLD."recurringRuleId" OR NEW."isEnabled" IS NOT OLD."isEnabled" OR NEW."type" IS NOT OLD."type" OR NEW."amount" IS NOT OLD."amount" OR NEW."category" IS NOT OLD."category" OR NEW."tagsCSV" IS NOT OLD."tagsCSV" OR NEW."note" IS NOT OLD."note" OR NEW."startDate" IS NOT OLD."startDate" OR NEW."cadence" IS NOT OLD."cadence" OR NEW."interval" IS NOT OLD."interval" OR NEW."endDate" IS NOT OLD."endDate" OR NEW."lastGeneratedDate" IS NOT OLD."lastGeneratedDate" OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."lastModifiedAt" IS NOT OLD."lastModifiedAt")
  AND NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE "recurring_rules" SET "lastModifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE rowid = NEW.rowid;
END;

-- trigger recurring_rules_rekey
CREATE TRIGGER "recurring_rules_rekey" AFTER UPDATE OF "recurringRuleId" ON "recurring_rules"
WHEN NEW."recurringRuleId" IS NOT OLD."recurringRuleId"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'RecurringRules', OLD."recurringRuleId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
  DELETE FROM sync_tombstones WHERE tab = 'RecurringRules' AND key = NEW."recurringRuleId";
END;

-- trigger recurring_rules_untombstone
CREATE TRIGGER "recurring_rules_untombstone" AFTER INSERT ON "recurring_rules"
BEGIN
  DELETE FROM sync_tombstones WHERE tab = 'RecurringRules' AND key = NEW."recurringRuleId";
END;

-- trigger recurring_rules_tombstone
CREATE TRIGGER "recurring_rules_tombstone" AFTER DELETE ON "recurring_rules"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'RecurringRules', OLD."recurringRuleId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
END;

-- trigger recurring_rules_fix_update
CREATE TRIGGER "recurring_rules_fix_update" BEFORE UPDATE ON "recurring_rules"
WHEN NEW."recurringRuleId" <> lower(NEW."recurringRuleId")
BEGIN
  UPDATE "recurring_rules" SET "recurringRuleId" = lower(NEW."recurringRuleId"), "isEnabled" = NEW."isEnabled", "type" = NEW."type", "amount" = NEW."amount", "category" = NEW."category", "tagsCSV" = NEW."tagsCSV", "note" = NEW."note", "startDate" = NEW."startDate", "cadence" = NEW."cadence", "interval" = NEW."interval", "endDate" = NEW."endDate", "lastGeneratedDate" = NEW."lastGeneratedDate", "createdAt" = NEW."createdAt", "lastModifiedAt" = NEW."lastModifiedAt"
  WHERE rowid = OLD.rowid;
  SELECT RAISE(IGNORE);
END;

-- table app_settings
CREATE TABLE "app_settings" ("datasetId" TEXT PRIMARY KEY NOT NULL, "schemaVersion" INTEGER NOT NULL, "timezone" TEXT NOT NULL, "rootFolderId" TEXT, "dataSpreadsheetId" TEXT, "receiptsFolderId" TEXT, "createdAt" TEXT NOT NULL, "lastModifiedAt" TEXT NOT NULL, CONSTRAINT "datasetId must not be empty" CHECK ("datasetId" <> ''), CONSTRAINT "datasetId must be a UUID" CHECK ("datasetId" GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'), CONSTRAINT "schemaVersion must be at least 1" CHECK ("schemaVersion" >= 1), CONSTRAINT "createdAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "createdAt", '+0 days') IS "createdAt"), CONSTRAINT "lastModifiedAt must be a timestamp like 2026-11-21T22:31:20.123Z" CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', "lastModifiedAt", '+0 days') IS "lastModifiedAt"));

-- trigger app_settings_fix_insert
CREATE TRIGGER "app_settings_fix_insert" BEFORE INSERT ON "app_settings"
WHEN NEW."datasetId" <> lower(NEW."datasetId") OR NEW."datasetId" IS NULL OR coalesce(NEW."createdAt", '') = '' OR coalesce(NEW."lastModifiedAt", '') = ''
BEGIN
  INSERT INTO "app_settings" ("datasetId", "schemaVersion", "timezone", "rootFolderId", "dataSpreadsheetId", "receiptsFolderId", "createdAt", "lastModifiedAt")
  VALUES (coalesce(lower(NEW."datasetId"), lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))), NEW."schemaVersion", NEW."timezone", NEW."rootFolderId", NEW."dataSpreadsheetId", NEW."receiptsFolderId", CASE WHEN coalesce(NEW."createdAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."createdAt" END, CASE WHEN coalesce(NEW."lastModifiedAt", '') = '' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE NEW."lastModifiedAt" END);
  SELECT RAISE(IGNORE);
END;

-- trigger app_settings_touch
CREATE TRIGGER "app_settings_touch" AFTER UPDATE ON "app_settings"
WHEN NEW."lastModifiedAt" IS OLD."lastModifiedAt"
  AND (NEW."datasetId" IS NOT OLD."datasetId" OR NEW."schemaVersion" IS NOT OLD."schemaVersion" OR NEW."timezone" IS NOT OLD."timezone" OR NEW."rootFolderId" IS NOT OLD."rootFolderId" OR NEW."dataSpreadsheetId" IS NOT OLD."dataSpreadsheetId" OR NEW."receiptsFolderId" IS NOT OLD."receiptsFolderId" OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."lastModifiedAt" IS NOT OLD."lastModifiedAt")
  AND NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE "app_settings" SET "lastModifiedAt" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE rowid = NEW.rowid;
END;

-- trigger app_settings_rekey
CREATE TRIGGER "app_settings_rekey" AFTER UPDATE OF "datasetId" ON "app_settings"
WHEN NEW."datasetId" IS NOT OLD."datasetId"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Settings', OLD."datasetId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
  DELETE FROM sync_tombstones WHERE tab = 'Settings' AND key = NEW."datasetId";
END;

-- trigger app_settings_untombstone
CREATE TRIGGER "app_settings_untombstone" AFTER INSERT ON "app_settings"
BEGIN
  DELETE FROM sync_tombstones WHERE tab = 'Settings' AND key = NEW."datasetId";
END;

-- trigger app_settings_tombstone
CREATE TRIGGER "app_settings_tombstone" AFTER DELETE ON "app_settings"
BEGIN
  INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt) SELECT 'Settings', OLD."datasetId", strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE NOT EXISTS (SELECT 1 FROM sync_applying);
END;

-- trigger app_settings_fix_update
CREATE TRIGGER "app_settings_fix_update" BEFORE UPDATE ON "app_settings"
WHEN NEW."datasetId" <> lower(NEW."datasetId")
BEGIN
  UPDATE "app_settings" SET "datasetId" = lower(NEW."datasetId"), "schemaVersion" = NEW."schemaVersion", "timezone" = NEW."timezone", "rootFolderId" = NEW."rootFolderId", "dataSpreadsheetId" = NEW."dataSpreadsheetId", "receiptsFolderId" = NEW."receiptsFolderId", "createdAt" = NEW."createdAt", "lastModifiedAt" = NEW."lastModifiedAt"
  WHERE rowid = OLD.rowid;
  SELECT RAISE(IGNORE);
END;

-- table sync_deleted_rows
CREATE TABLE sync_deleted_rows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tab TEXT NOT NULL,
  key TEXT NOT NULL,
  rowJSON TEXT NOT NULL,
  deletedAt TEXT NOT NULL,
  reason TEXT NOT NULL
);

-- index sync_deleted_rows_deletedAt
CREATE INDEX sync_deleted_rows_deletedAt ON sync_deleted_rows (deletedAt);

-- index sync_deleted_rows_key
CREATE INDEX sync_deleted_rows_key ON sync_deleted_rows (tab, key);

-- trigger transactions_keep_deleted
CREATE TRIGGER "transactions_keep_deleted" AFTER DELETE ON "transactions"
BEGIN
  INSERT INTO sync_deleted_rows (tab, key, rowJSON, deletedAt, reason)
  VALUES ('Transactions', OLD."transactionId", json_object('transactionId', OLD."transactionId", 'type', OLD."type", 'date', OLD."date", 'year', OLD."year", 'month', OLD."month", 'amount', OLD."amount", 'category', OLD."category", 'tagsCSV', OLD."tagsCSV", 'note', OLD."note", 'paidFlag', OLD."paidFlag", 'reimbursedFlag', OLD."reimbursedFlag", 'recurringRuleId', OLD."recurringRuleId", 'createdAt', OLD."createdAt", 'lastModifiedAt', OLD."lastModifiedAt"),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
          CASE WHEN NOT EXISTS (SELECT 1 FROM sync_applying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
END;

-- trigger receipts_keep_deleted
CREATE TRIGGER "receipts_keep_deleted" AFTER DELETE ON "receipts"
BEGIN
  INSERT INTO sync_deleted_rows (tab, key, rowJSON, deletedAt, reason)
  VALUES ('Receipts', OLD."receiptId", json_object('receiptId', OLD."receiptId", 'transactionId', OLD."transactionId", 'driveFileId', OLD."driveFileId", 'fileName', OLD."fileName", 'createdAt', OLD."createdAt", 'lastModifiedAt', OLD."lastModifiedAt"),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
          CASE WHEN NOT EXISTS (SELECT 1 FROM sync_applying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
END;

-- trigger categories_keep_deleted
CREATE TRIGGER "categories_keep_deleted" AFTER DELETE ON "categories"
BEGIN
  INSERT INTO sync_deleted_rows (tab, key, rowJSON, deletedAt, reason)
  VALUES ('Categories', OLD."name", json_object('name', OLD."name", 'type', OLD."type", 'emoji', OLD."emoji", 'colorHex', OLD."colorHex", 'isActive', OLD."isActive", 'sortOrder', OLD."sortOrder", 'createdAt', OLD."createdAt", 'lastModifiedAt', OLD."lastModifiedAt"),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
          CASE WHEN NOT EXISTS (SELECT 1 FROM sync_applying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
END;

-- trigger recurring_rules_keep_deleted
CREATE TRIGGER "recurring_rules_keep_deleted" AFTER DELETE ON "recurring_rules"
BEGIN
  INSERT INTO sync_deleted_rows (tab, key, rowJSON, deletedAt, reason)
  VALUES ('RecurringRules', OLD."recurringRuleId", json_object('recurringRuleId', OLD."recurringRuleId", 'isEnabled', OLD."isEnabled", 'type', OLD."type", 'amount', OLD."amount", 'category', OLD."category", 'tagsCSV', OLD."tagsCSV", 'note', OLD."note", 'startDate', OLD."startDate", 'cadence', OLD."cadence", 'interval', OLD."interval", 'endDate', OLD."endDate", 'lastGeneratedDate', OLD."lastGeneratedDate", 'createdAt', OLD."createdAt", 'lastModifiedAt', OLD."lastModifiedAt"),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
          CASE WHEN NOT EXISTS (SELECT 1 FROM sync_applying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
END;

-- trigger app_settings_keep_deleted
CREATE TRIGGER "app_settings_keep_deleted" AFTER DELETE ON "app_settings"
BEGIN
  INSERT INTO sync_deleted_rows (tab, key, rowJSON, deletedAt, reason)
  VALUES ('Settings', OLD."datasetId", json_object('datasetId', OLD."datasetId", 'schemaVersion', OLD."schemaVersion", 'timezone', OLD."timezone", 'rootFolderId', OLD."rootFolderId", 'dataSpreadsheetId', OLD."dataSpreadsheetId", 'receiptsFolderId', OLD."receiptsFolderId", 'createdAt', OLD."createdAt", 'lastModifiedAt', OLD."lastModifiedAt"),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
          CASE WHEN NOT EXISTS (SELECT 1 FROM sync_applying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
END;

-- table sync_import_fingerprints
CREATE TABLE sync_import_fingerprints (
  fingerprint TEXT PRIMARY KEY NOT NULL,
  transactionId TEXT NOT NULL,
  importedAt TEXT
);

-- table receipt_uploads
CREATE TABLE "receipt_uploads" ("receiptId" TEXT PRIMARY KEY NOT NULL, "transactionId" TEXT NOT NULL, "name" TEXT NOT NULL, "file" TEXT NOT NULL, "session" TEXT, "status" TEXT NOT NULL CHECK (status IN ('queued', 'failed', 'uploaded')), "attempts" INTEGER NOT NULL DEFAULT 0, "lastError" TEXT, "createdAt" TEXT NOT NULL, "updatedAt" TEXT NOT NULL);

-- index receipt_uploads_status
CREATE INDEX "receipt_uploads_status" ON "receipt_uploads"("status");

-- table sync_dirty
CREATE TABLE sync_dirty (
  tab TEXT NOT NULL CHECK (tab IN ('Transactions', 'Receipts', 'Categories', 'RecurringRules', 'Settings')),
  key TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (tab, key)
) WITHOUT ROWID;

-- trigger transactions_count_insert
CREATE TRIGGER "transactions_count_insert"
AFTER INSERT ON "transactions" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Transactions', NEW."transactionId", value FROM sync_change_counter WHERE NEW."transactionId" IS NOT NULL;
END;

-- trigger transactions_count_update
CREATE TRIGGER "transactions_count_update"
AFTER UPDATE ON "transactions" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Transactions', OLD."transactionId", value FROM sync_change_counter WHERE OLD."transactionId" IS NOT NULL;
INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Transactions', NEW."transactionId", value FROM sync_change_counter WHERE NEW."transactionId" IS NOT NULL;
END;

-- trigger transactions_count_delete
CREATE TRIGGER "transactions_count_delete"
AFTER DELETE ON "transactions" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Transactions', OLD."transactionId", value FROM sync_change_counter WHERE OLD."transactionId" IS NOT NULL;
END;

-- trigger receipts_count_insert
CREATE TRIGGER "receipts_count_insert"
AFTER INSERT ON "receipts" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Receipts', NEW."receiptId", value FROM sync_change_counter WHERE NEW."receiptId" IS NOT NULL;
END;

-- trigger receipts_count_update
CREATE TRIGGER "receipts_count_update"
AFTER UPDATE ON "receipts" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Receipts', OLD."receiptId", value FROM sync_change_counter WHERE OLD."receiptId" IS NOT NULL;
INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Receipts', NEW."receiptId", value FROM sync_change_counter WHERE NEW."receiptId" IS NOT NULL;
END;

-- trigger receipts_count_delete
CREATE TRIGGER "receipts_count_delete"
AFTER DELETE ON "receipts" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Receipts', OLD."receiptId", value FROM sync_change_counter WHERE OLD."receiptId" IS NOT NULL;
END;

-- trigger categories_count_insert
CREATE TRIGGER "categories_count_insert"
AFTER INSERT ON "categories" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Categories', NEW."name", value FROM sync_change_counter WHERE NEW."name" IS NOT NULL;
END;

-- trigger categories_count_update
CREATE TRIGGER "categories_count_update"
AFTER UPDATE ON "categories" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Categories', OLD."name", value FROM sync_change_counter WHERE OLD."name" IS NOT NULL;
INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Categories', NEW."name", value FROM sync_change_counter WHERE NEW."name" IS NOT NULL;
END;

-- trigger categories_count_delete
CREATE TRIGGER "categories_count_delete"
AFTER DELETE ON "categories" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Categories', OLD."name", value FROM sync_change_counter WHERE OLD."name" IS NOT NULL;
END;

-- trigger recurring_rules_count_insert
CREATE TRIGGER "recurring_rules_count_insert"
AFTER INSERT ON "recurring_rules" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'RecurringRules', NEW."recurringRuleId", value FROM sync_change_counter WHERE NEW."recurringRuleId" IS NOT NULL;
END;

-- trigger recurring_rules_count_update
CREATE TRIGGER "recurring_rules_count_update"
AFTER UPDATE ON "recurring_rules" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'RecurringRules', OLD."recurringRuleId", value FROM sync_change_counter WHERE OLD."recurringRuleId" IS NOT NULL;
INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'RecurringRules', NEW."recurringRuleId", value FROM sync_change_counter WHERE NEW."recurringRuleId" IS NOT NULL;
END;

-- trigger recurring_rules_count_delete
CREATE TRIGGER "recurring_rules_count_delete"
AFTER DELETE ON "recurring_rules" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'RecurringRules', OLD."recurringRuleId", value FROM sync_change_counter WHERE OLD."recurringRuleId" IS NOT NULL;
END;

-- trigger app_settings_count_insert
CREATE TRIGGER "app_settings_count_insert"
AFTER INSERT ON "app_settings" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Settings', NEW."datasetId", value FROM sync_change_counter WHERE NEW."datasetId" IS NOT NULL;
END;

-- trigger app_settings_count_update
CREATE TRIGGER "app_settings_count_update"
AFTER UPDATE ON "app_settings" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Settings', OLD."datasetId", value FROM sync_change_counter WHERE OLD."datasetId" IS NOT NULL;
INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Settings', NEW."datasetId", value FROM sync_change_counter WHERE NEW."datasetId" IS NOT NULL;
END;

-- trigger app_settings_count_delete
CREATE TRIGGER "app_settings_count_delete"
AFTER DELETE ON "app_settings" WHEN NOT EXISTS (SELECT 1 FROM sync_applying)
BEGIN
  UPDATE sync_change_counter SET value = value + 1;
  INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
  SELECT 'Settings', OLD."datasetId", value FROM sync_change_counter WHERE OLD."datasetId" IS NOT NULL;
END;

-- index sync_base_hashes
CREATE INDEX sync_base_hashes ON sync_base (tab, key, raw_hash);
