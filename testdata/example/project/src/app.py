from src import config


def main():
    print("listening on", config.PORT)


if __name__ == "__main__":
    main()
